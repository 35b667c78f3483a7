// A game's parameters as form fields, built from its own description in GET /api/games (label, effect, range,
// named choices), and read back into the JSON the API takes: the lobby's new-game form and the analysis board's
// set-up form share them, so a parameter reads the same on both pages and no page names a game.

import { h } from "./api.js";

// a parameter as the game describes it: its label, a field for its value (named choices as a list), and a line
// under it saying what the value changes in play (the field's description for a screen reader). `value`: the
// field's first value (the game's default when not given).
export function paramInput(p, value = p.default) {
  const id = `param-${p.name}`;
  const helpId = `${id}-help`;
  const names = p.choice_labels || p.choices;
  let input;
  if (p.type === "bool") {
    input = h("input", { type: "checkbox", id, name: p.name, checked: !!value });
  } else if (p.choices) {
    input = h("select", { id, name: p.name }, p.choices.map((c, i) => h("option", { value: c, selected: c === value }, String(names[i]))));
  } else {
    input = h("input", { id, name: p.name, type: p.type === "int" || p.type === "float" ? "number" : "text",
      min: p.minimum ?? undefined, max: p.maximum ?? undefined, step: p.type === "int" ? 1 : "any",
      value: value ?? "", placeholder: p.nullable ? "none" : undefined, style: "width:7rem" });
  }
  input.dataset.param = p.name;
  input.dataset.type = p.type;
  input.dataset.nullable = p.nullable ? "1" : "";
  if (p.help) input.setAttribute("aria-describedby", helpId);
  return h("div.param", { dataset: { paramRow: p.name } },
    h("label", h("span", p.label || p.name.replace(/_/g, " ")), input),
    p.help ? h("small.muted.param-help", { id: helpId }, p.help) : null);
}

/** The values of every paramInput inside `box`, typed as the game declares them (the server checks them). */
export function paramsOf(box) {
  const params = {};
  for (const input of box.querySelectorAll("[data-param]")) {
    const t = input.dataset.type;
    if (t === "bool") params[input.dataset.param] = input.checked;
    else if (input.value === "" && input.dataset.nullable) params[input.dataset.param] = null;
    else if (t === "int") params[input.dataset.param] = parseInt(input.value, 10);
    else if (t === "float") params[input.dataset.param] = parseFloat(input.value);
    else params[input.dataset.param] = input.value;
  }
  return params;
}
