"""A self-contained HTML report of a tournament: standings, failures, SPRT, unplayed games, and two inline SVG plots.

Nothing external (no CDN, no script, no font): the file opens the same in any browser, offline, years later.
The plots are drawn here by hand: each player's Bayesian rating in the field with its 95% interval, and the score
matrix as a heat map (row player's score against the column player, red 0 -> white 50% -> green 100%).
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:.9em}td,th{padding:.25em .6em;border:1px solid #ddd;text-align:right}
th{background:#f4f4f4}td.name,th.name{text-align:left}.bad{color:#b00020;font-weight:600}
.meta{color:#555;font-size:.9em}svg text{font-family:inherit}
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _fmt(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{x:+.{digits}f}" if digits else f"{x:.0f}"


def elo_plot(rows: list[dict[str, Any]], width: int = 720) -> str:
    """Horizontal error-bar chart of each player's rating in the field with its 95% interval."""
    items = [(r["name"], r["rating"]) for r in rows if r.get("rating")]
    if not items:
        return "<p>No rated games yet.</p>"
    finite = [v for _, e in items for v in (e["lower"], e["upper"], e["elo"])]
    lo = min([*finite, -50.0])
    hi = max([*finite, 50.0])
    pad = (hi - lo) * 0.08
    lo, hi = lo - pad, hi + pad
    span = hi - lo or 1.0
    left, right, row_h = 180, 30, 26
    plot_w = width - left - right
    height = row_h * len(items) + 40

    def x(v: float) -> float:
        return float(left + (min(max(v, lo), hi) - lo) / span * plot_w)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="Ratings with 95% intervals">'
    ]
    zero = x(0.0)
    parts.append(
        f'<line x1="{zero:.1f}" y1="5" x2="{zero:.1f}" y2="{height - 30}" stroke="#999" stroke-dasharray="4 3"/>'
    )
    for i, (name, e) in enumerate(items):
        y = 20 + i * row_h
        x0, x1, xc = x(e["lower"]), x(e["upper"]), x(e["elo"])
        parts.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end" font-size="12">{_e(name)}</text>')
        parts.append(f'<line x1="{x0:.1f}" y1="{y}" x2="{x1:.1f}" y2="{y}" stroke="#3465a4" stroke-width="2"/>')
        for xe in (x0, x1):
            parts.append(
                f'<line x1="{xe:.1f}" y1="{y - 5}" x2="{xe:.1f}" y2="{y + 5}" stroke="#3465a4" stroke-width="2"/>'
            )
        parts.append(
            f'<circle cx="{xc:.1f}" cy="{y}" r="4" fill="#204a87"><title>{_e(name)}: {e["elo"]:+.0f} +/- {e["error"]:.0f}</title></circle>'
        )
    axis_y = height - 22
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + plot_w}" y2="{axis_y}" stroke="#444"/>')
    for k in range(6):
        v = lo + span * k / 5
        xv = left + plot_w * k / 5
        parts.append(f'<line x1="{xv:.1f}" y1="{axis_y}" x2="{xv:.1f}" y2="{axis_y + 4}" stroke="#444"/>')
        parts.append(f'<text x="{xv:.1f}" y="{axis_y + 16}" text-anchor="middle" font-size="11">{v:.0f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _heat(score: float) -> str:
    """Red (0) through white (0.5) to green (1)."""
    score = min(max(score, 0.0), 1.0)
    if score < 0.5:
        t = score / 0.5
        r, g, b = 220, int(80 + 175 * t), int(80 + 175 * t)
    else:
        t = (score - 0.5) / 0.5
        r, g, b = int(255 - 175 * t), int(255 - 35 * t), int(255 - 175 * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def score_matrix_plot(names: list[str], points: list[list[float]], games: list[list[int]], cell: int = 44) -> str:
    """Heat map of the score matrix (row player's score against the column player)."""
    n = len(names)
    left, top = 170, min(110, 30 + 6 * max((len(n) for n in names), default=0))
    width, height = left + n * cell + 10, top + n * cell + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" aria-label="Score matrix">'
    ]
    for j, name in enumerate(names):
        cx = left + j * cell + cell / 2
        parts.append(f'<text transform="translate({cx:.1f},{top - 6}) rotate(-45)" font-size="11">{_e(name)}</text>')
    for i, name in enumerate(names):
        y = top + i * cell
        parts.append(
            f'<text x="{left - 6}" y="{y + cell / 2 + 4:.1f}" text-anchor="end" font-size="11">{_e(name)}</text>'
        )
        for j in range(n):
            x = left + j * cell
            g = games[i][j]
            if i == j or g == 0:
                fill, label, tip = "#eeeeee", "", ""
            else:
                s = points[i][j] / g
                fill, label = _heat(s), f"{s * 100:.0f}"
                tip = f"{names[i]} vs {names[j]}: {points[i][j]:g}/{g}"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{fill}" stroke="#ccc"><title>{_e(tip)}</title></rect>'
            )
            if label:
                parts.append(
                    f'<text x="{x + cell / 2}" y="{y + cell / 2 + 4}" text-anchor="middle" font-size="11">{label}</text>'
                )
    parts.append("</svg>")
    return "".join(parts)


def _error_cell(rating: dict[str, Any] | None) -> str:
    """The rating's 95% margin."""
    return "-" if not rating else f"&plusmn;{rating['error']:.0f}"


def _bad(count: int) -> str:
    """A failure-count cell, highlighted when not zero."""
    return f"<td class='bad'>{count}</td>" if count else f"<td>{count}</td>"


def _not_played(summary: dict[str, Any]) -> list[str]:
    """The games that ended without a result, one row per reason (they are in no other table or plot)."""
    from hexarena.tournament.standings import by_reason

    aborted = summary.get("aborted_games") or []
    if not aborted:
        return []
    out = [
        f"<h2>Games not played</h2><p>{len(aborted)} of {summary['games_finished']} games ended without a result: "
        "they score nothing and are left out of the standings, Elo, crosstable and SPRT.</p>",
        "<table><tr><th>games</th><th class='name'>ended</th><th class='name'>why</th><th class='name'>ids</th></tr>",
    ]
    for termination, reason, ids in by_reason(aborted):
        out.append(
            f"<tr><td>{len(ids)}</td><td class='name'>{_e(termination)}</td><td class='name'>{_e(reason)}</td>"
            f"<td class='name'>{_e(', '.join(ids))}</td></tr>"
        )
    out.append("</table>")
    return out


def render_report(summary: dict[str, Any]) -> str:
    """The report page for a runner's ``summary()``."""
    config = summary["config"]
    rows = summary["standings"]
    names = config["names"]
    cross = summary["crosstable"]
    title = config.get("name") or f"{config['format']} tournament: {config['game']}"
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_e(title)}</h1>",
        f"<p class='meta'>Tournament {_e(summary['id'])} &middot; game {_e(config['game'])} &middot; format "
        f"{_e(config['format'])} &middot; {config['games_per_pairing']} games per pairing &middot; seed {config['seed']}"
        f" &middot; status {_e(summary['status'])} &middot; {summary['games_finished']}/{summary['games_scheduled']} games</p>",
    ]
    if summary.get("stop_reason"):
        out.append(f"<p><strong>Stopped:</strong> {_e(summary['stop_reason'])}</p>")
    out.append(
        "<h2>Standings</h2><table><tr><th>#</th><th class='name'>player</th><th>points</th><th>games</th>"
        "<th>W</th><th>D</th><th>L</th><th>score</th><th>Elo</th><th>95%</th><th>LOS</th>"
        "<th>timeouts</th><th>crashes</th><th>illegal</th><th>aborted</th></tr>"
    )
    for rank, r in enumerate(rows, 1):
        e = r.get("elo") or {}
        rating = r.get("rating")
        los = e.get("los")
        out.append(
            f"<tr><td>{rank}</td><td class='name'>{_e(r['name'])}</td><td>{r['points']:g}</td><td>{r['games']}</td>"
            f"<td>{r['wins']}</td><td>{r['draws']}</td><td>{r['losses']}</td><td>{r['score'] * 100:.1f}%</td>"
            f"<td>{'-' if not rating else format(rating['elo'], '+.0f')}</td><td>{_error_cell(rating)}</td>"
            f"<td>{'-' if los is None else f'{los * 100:.1f}%'}</td>"
            f"{_bad(r['timeouts'])}{_bad(r['crashes'])}{_bad(r['illegal'])}{_bad(r.get('aborted', 0))}</tr>"
        )
    out.append("</table>")
    out.extend(_not_played(summary))
    sprt = summary.get("sprt")
    if sprt:
        s = config["sprt"]
        out.append(
            f"<h2>SPRT</h2><p>H0: elo = {s['elo0']:g}, H1: elo = {s['elo1']:g} ({_e(s['model'])}), alpha {s['alpha']:g}, "
            f"beta {s['beta']:g}. LLR {sprt['llr']:.2f} in [{sprt['lower']:.2f}, {sprt['upper']:.2f}]: "
            f"<strong>{_e(sprt['decision'] or 'undecided')}</strong></p>"
        )
    out.append("<h2>Ratings in the field (95% intervals)</h2>")
    out.append(elo_plot(rows))
    out.append("<h2>Score matrix</h2>")
    out.append(score_matrix_plot(names, cross["points"], cross["games"]))
    out.append("<h2>Crosstable</h2><table><tr><th class='name'></th>")
    out.extend(f"<th>{_e(n)}</th>" for n in names)
    out.append("</tr>")
    for i, n in enumerate(names):
        out.append(f"<tr><th class='name'>{_e(n)}</th>")
        for j in range(len(names)):
            g = cross["games"][i][j]
            out.append("<td>-</td>" if i == j or not g else f"<td>{cross['points'][i][j]:g}/{g}</td>")
        out.append("</tr>")
    out.append("</table></body></html>")
    return "\n".join(out)


def write_report(summary: dict[str, Any], path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(render_report(summary), encoding="utf-8")
    return p


__all__ = ["elo_plot", "render_report", "score_matrix_plot", "write_report"]
