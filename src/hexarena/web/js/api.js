// Small helpers shared by every page: JSON over HTTP, WebSocket URLs, DOM building, formatting.

export async function getJSON(path) {
  const r = await fetch(path, { headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(await errorText(r));
  return r.json();
}

// A public server (hexarena serve --public) wants an API token on every POST. The page asks for one the first
// time the server answers 401, keeps it in this browser's localStorage and sends it as a Bearer header from then
// on; a token the server refuses (revoked) is forgotten and asked for again. A local server never asks.
const API_TOKEN = "hexarena.apiToken";

export function apiToken() {
  try { return localStorage.getItem(API_TOKEN) || ""; } catch { return ""; }
}

export function forgetApiToken() {
  try { localStorage.removeItem(API_TOKEN); } catch { /* storage disabled: nothing kept */ }
}

function post(path, body, token) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
}

export async function postJSON(path, body) {
  let r = await post(path, body, apiToken());
  if (r.status === 401) {
    forgetApiToken();
    const why = await errorText(r);
    const given = (prompt(`${why}\n\nPaste your API token for this server (kept in this browser):`) || "").trim();
    if (!given) throw new Error(why);
    r = await post(path, body, given);
    if (r.ok) {
      try { localStorage.setItem(API_TOKEN, given); } catch { /* storage disabled: asked again next time */ }
    }
  }
  if (!r.ok) throw httpError(r.status, await errorText(r));
  return r.json();
}

// the server's refusal, with its HTTP status: a page polling a route stops on a 4xx answer (asking again would
// only be refused again) but keeps going through a network hiccup
function httpError(status, text) {
  const err = new Error(text);
  err.status = status;
  return err;
}

async function errorText(r) {
  try {
    const body = await r.json();
    const d = body.detail;
    if (typeof d === "string") return d;
    if (Array.isArray(d)) return d.map((e) => `${(e.loc || []).join(".")}: ${e.msg}`).join("; ");
    return JSON.stringify(body);
  } catch {
    return `${r.status} ${r.statusText}`;
  }
}

// The name this person plays under, kept in this browser (no accounts): the lobby fills it in for "Me" and keeps
// what was typed there, and joining a friend's game sends it, so the other person and the spectators see it.
const PERSON_NAME = "hexarena.name";

export function personName() {
  try { return (localStorage.getItem(PERSON_NAME) || "").slice(0, 32); } catch { return ""; }
}

export function savePersonName(name) {
  try { if (name) localStorage.setItem(PERSON_NAME, name.slice(0, 32)); } catch { /* storage disabled */ }
}

// Who this person is, without accounts: a secret this browser makes once (32 random bytes, base64url) and keeps,
// sent when taking a seat. The server keeps only a hash of it, the key rated games rate this person under; the
// name above is only what others see, so two people who pick the same name stay two people. Storage disabled:
// a new identity each page load (such games can be played, but a rating would not follow the person).
const PERSON_ID = "hexarena.person";
const PERSON_ID_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function personSecret() {
  let kept = "";
  try { kept = localStorage.getItem(PERSON_ID) || ""; } catch { /* storage disabled */ }
  if (PERSON_ID_FORMAT.test(kept)) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const made = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  try { localStorage.setItem(PERSON_ID, made); } catch { /* this page only */ }
  return made;
}

/** A player's rating for their card: "1523" or "1523?" while provisional; "" when not rated. */
export function ratingText(p) {
  const r = p?.rating;
  if (!r) return "";
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;
}

export function wsURL(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

// The attributes of a box that scrolls (a long move list): a keyboard reaches it (a tab stop, then the arrow keys
// scroll it) and a screen reader names what it holds. Without them its overflow can only be scrolled by mouse.
export const SCROLL_BOX = Object.freeze({ tabindex: "0", role: "region" });

/** h("div.panel#x", {onclick}, child, "text", [children]) -> an element. */
export function h(tag, attrs, ...children) {
  const [name, ...rest] = tag.split(/(?=[.#])/);
  const el = document.createElement(name || "div");
  for (const part of rest) {
    if (part[0] === ".") el.classList.add(part.slice(1));
    else el.id = part.slice(1);
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : String(c));
  }
}

export function fmtClock(seconds) {
  if (seconds === null || seconds === undefined) return "—";
  const s = Math.max(0, seconds);
  if (s < 10) return s.toFixed(1);
  const m = Math.floor(s / 60);
  const r = Math.floor(s % 60);
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(r).padStart(2, "0")}`
    : `${m}:${String(r).padStart(2, "0")}`;
}

export function fmtDate(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleString();
}

export function playerName(p) {
  if (!p) return "?";
  return p.name || p.spec || p.kind || "?";
}

/** "x wins", "draw", "running"... for a game summary. */
export function resultText(g, seats) {
  if (g.status === "running") return "running";
  if (g.status === "aborted") return "aborted";
  if (g.status === "interrupted") return "interrupted";
  const how = g.termination && g.termination !== "normal" ? ` (${g.termination.replace(/_/g, " ")})` : "";  // "turn limit"
  if (g.winner === null || g.winner === undefined) return `draw${how}`;
  const side = seats ? seats[g.winner] : `seat ${g.winner}`;
  return `${side} wins${how}`;
}

export function download(name, text) {
  const a = h("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: name });
  document.body.append(a);
  a.click();
  a.remove();
}

/** A button that copies a text box's value (the clipboard API, else the old copy command) and says "Copied". */
export function copyButton(box, text = "Copy", tag = "button.secondary") {
  const btn = h(tag, { type: "button" }, text);
  btn.addEventListener("click", async () => {
    box.select();
    try { await navigator.clipboard.writeText(box.value); } catch { document.execCommand("copy"); }
    btn.textContent = "Copied";
    setTimeout(() => { btn.textContent = text; }, 1500);
  });
  return btn;
}
