// Two people on one game: the creator of a match with an open seat sees "waiting for an opponent" and a link to
// send; whoever opens the link (#/join/ID/SEAT) takes the seat (the first one only) and lands on the game.

import { h, postJSON, copyButton, personName, personSecret } from "./api.js";
import { saveToken } from "./tokens.js";

export function inviteURL(id, seat) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(id)}/${encodeURIComponent(seat)}`;
}

/** The "waiting for an opponent" box with the invite link and a Copy button. */
export function invitePanel(id, seat) {
  const link = h("input#invite-link", { type: "text", readonly: true, value: inviteURL(id, seat) });
  const copy = copyButton(link, "Copy link", "button.secondary#invite-copy");
  return h("div.panel.invite#waiting", { role: "status" },
    h("strong", "Waiting for an opponent"),
    h("p.muted", `Send this link to the person you want to play (they play ${seat}); the game starts when they open it.`),
    h("label", { for: "invite-link" }, "Invite link"),
    h("div.controls", link, copy));
}

/** #/join/ID/SEAT: take the open seat and go to the game; say why not when it is taken or over. */
export async function joinPage(app, { args }) {
  const [id, seat] = args;
  app.append(h("p.muted", "Joining the game…"));
  try {
    const res = await postJSON(`/api/ui/matches/${encodeURIComponent(id)}/join`, { seat, name: personName() || undefined, person: personSecret() });
    saveToken(id, res.seat, res.token);
    location.replace(`#/play/${id}`);
  } catch (err) {
    app.replaceChildren(h("h1", "Could not join"), h("p.error#join-error", err.message),
      h("p", h("a", { href: `#/watch/${id}` }, "Watch the game"), " or go back to the ", h("a", { href: "#/lobby" }, "lobby"), "."));
  }
}
