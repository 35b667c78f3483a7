// Seat tokens this browser holds, per match, kept in localStorage so a reload (or a new tab) rejoins the seat.

const KEY = "hexarena.seats";

function all() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export function seatTokens(matchId) {
  return all()[matchId] || {};
}

export function saveToken(matchId, seat, token) {
  const data = all();
  data[matchId] = { ...(data[matchId] || {}), [seat]: token };
  const ids = Object.keys(data);
  for (const old of ids.slice(0, Math.max(0, ids.length - 50))) delete data[old];
  localStorage.setItem(KEY, JSON.stringify(data));
}
