// Rules pages: #/rules lists every game, #/rules/GAME shows the rules a game publishes (GET /api/games/GAME/rules),
// each example position pictured by the game's own engine on the server. The server's text is shown as text
// (paragraphs, "- " bullets and `code`), never inserted as HTML; pictures are SVG documents shown as images.

import { getJSON, h } from "./api.js";

export function rulesHref(game) {
  return `#/rules/${encodeURIComponent(game)}`;
}

// A link to a game's rules: given a game name, that game's; given the lobby's game <select>, the chosen game's.
export function rulesLink(game, title) {
  if (typeof game === "string") return h("a.rules-link", { href: rulesHref(game) }, `Rules of ${title || game}`);
  const select = game;
  const link = h("a.rules-link#rules-link", { href: rulesHref(select.value) });
  const sync = () => {
    link.href = rulesHref(select.value);
    link.textContent = `Rules of ${select.selectedOptions[0]?.textContent || select.value}`;
  };
  select.addEventListener("change", sync);
  sync();
  return link;
}

function inline(text) {
  return text.split("`").map((part, i) => (i % 2 ? h("code", part) : part));
}

function blocks(text) {
  const out = [];
  let list = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("- ")) {
      if (!list) out.push((list = h("ul")));
      list.append(h("li", inline(line.slice(2))));
    } else {
      list = null;
      if (line.trim()) out.push(h("p", inline(line)));
    }
  }
  return out;
}

function picture(example) {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(example.svg)}`;
  const moves = example.moves.length ? example.moves.join(" ") : "none (the start)";
  return h("figure.rules-example",
    h("img", { src, alt: example.caption, style: "max-width:100%;height:auto" }),
    h("figcaption", example.caption, h("br"), h("small.muted", "Moves: ", h("code", moves))));
}

export async function rulesPage(app, { args }) {
  const name = args[0];
  if (!name) {
    const games = await getJSON("/api/games");
    app.append(h("h1", "Rules"),
      // finger-sized targets (WCAG 2.5.8): a list of bare links would sit 19 px apart
      h("ul#rules-games", games.map((g) => h("li", h("a", { href: rulesHref(g.name), style: "display:inline-block;min-height:40px;line-height:40px" }, g.title)))));
    return;
  }
  const rules = await getJSON(`/api/games/${encodeURIComponent(name)}/rules`);
  app.append(
    h("h1", `Rules of ${rules.title}`),
    h(rules.published ? "p.rules-summary" : "p.rules-summary.muted", rules.summary),
    ...rules.sections.map((s) => h("section.rules-section", h("h2", s.title), blocks(s.text), s.examples.map(picture))),
    h("p", h("a", { href: `#/lobby?game=${encodeURIComponent(name)}` }, `Play ${rules.title}`), " · ",
      h("a", { href: "#/rules" }, "Every game's rules")));
}
