"""The result of a conformance run: one row per check, the worst outcome of each, and how to show it.

Why one row per check rather than per game: an author wants to know *what* is wrong (the move was illegal, the
answer late) once, with the first example, not the same failure ten times; the games count says how often.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

PASS, WARN, FAIL, SKIP = "pass", "warn", "fail", "skip"
_RANK = {SKIP: -1, PASS: 0, WARN: 1, FAIL: 2}
_STYLE = {SKIP: "dim", PASS: "green", WARN: "yellow", FAIL: "bold red"}

#: Longest text kept for what a bot sent (a bot may send megabytes; the report shows a recognisable start).
MAX_SENT = 300
MAX_EVALUATIONS = 200


def clip(text: str, limit: int = MAX_SENT) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(slots=True)
class Check:
    """One check's verdict. ``sent``/``expected``/``fix`` are filled for a warning or a failure."""

    name: str
    status: str
    detail: str
    sent: str | None = None
    expected: str | None = None
    fix: str | None = None
    count: int = 1  # how many observations had this check's status (e.g. games that failed it)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"check": self.name, "status": self.status, "detail": self.detail, "count": self.count}
        for key in ("sent", "expected", "fix"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(slots=True)
class Report:
    """Every check of one bot, in the order they were first observed."""

    spec: str
    protocol: str
    game: str
    checks: dict[str, Check] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)
    #: the evaluations the bot attached to its moves (bounded: the first ``MAX_EVALUATIONS``)
    evaluations: list[dict[str, Any]] = field(default_factory=list)

    def add(
        self,
        name: str,
        status: str,
        detail: str,
        *,
        sent: str | None = None,
        expected: str | None = None,
        fix: str | None = None,
    ) -> None:
        """Record one observation; the row keeps the worst status and the first example of it."""
        new = Check(name, status, detail, None if sent is None else clip(sent), expected, fix)
        old = self.checks.get(name)
        if old is None or _RANK[status] > _RANK[old.status]:
            self.checks[name] = new
        elif old.status == status:
            old.count += 1

    @property
    def failed(self) -> bool:
        return any(c.status == FAIL for c in self.checks.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "protocol": self.protocol,
            "game": self.game,
            "ok": not self.failed,
            "checks": [c.to_json() for c in self.checks.values()],
            "games": self.games,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2)

    def render(self, console: Console) -> None:
        table = Table(title=f"check-bot {self.spec} ({self.protocol}, {self.game})", show_lines=True)
        table.add_column("check", no_wrap=True)
        table.add_column("result", no_wrap=True)
        table.add_column("details", overflow="fold")
        for check in self.checks.values():
            lines = [check.detail]
            if check.sent is not None:
                lines.append(f"[b]sent:[/b] {_escape(check.sent)}")
            if check.expected is not None:
                lines.append(f"[b]expected:[/b] {_escape(check.expected)}")
            if check.fix is not None:
                lines.append(f"[b]fix:[/b] {_escape(check.fix)}")
            lines[0] = _escape(lines[0])
            status = f"[{_STYLE[check.status]}]{check.status}[/]"
            if check.count > 1:
                status += f" x{check.count}"
            table.add_row(check.name, status, "\n".join(lines))
        console.print(table)
        fails = sum(c.status == FAIL for c in self.checks.values())
        warns = sum(c.status == WARN for c in self.checks.values())
        verdict = "[bold red]FAILED[/]" if fails else "[green]passed[/]"
        console.print(f"{verdict}: {fails} failure(s), {warns} warning(s), {len(self.games)} game(s) played")


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


__all__ = ["FAIL", "MAX_EVALUATIONS", "PASS", "SKIP", "WARN", "Check", "Report", "clip"]
