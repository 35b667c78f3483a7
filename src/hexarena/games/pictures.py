"""Pictures of positions as SVG, from shapes a game's rules module lays out with its own board geometry.

Why shapes and not a drawing per game: every game's picture is a handful of polygons, circles, segments and
labels; the games differ only in where they go (axial hexagons for HTTTX, Hex and Hive, a triangular lattice for
Hexagon dots, a square grid for noughts and crosses). Each game places its shapes from what its engine reports
(``to_json``, ``legal_view``), and this module alone writes SVG, so every picture is escaped, sized and labelled
the same way. Colours are attributes, not a stylesheet: an SVG inside an HTML page would apply its ``<style>``
to the whole page.

Shapes may carry ``cell`` (the cell's name in the game's notation, written as ``data-cell``) and ``mark`` (what
the rules highlight there, written as ``data-mark``), so tests and readers can find the engine's cells in the
picture.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape

Point = tuple[float, float]

#: Colours by role. Light tones with dark outlines read on the docs' light and dark themes alike.
COLOURS = {
    "board": "#f3ead7",
    "cell": "#fbf6ea",
    "grid": "#8a7b63",
    "black": "#222222",
    "white": "#fdfdfd",
    "x": "#c8372d",
    "o": "#2a62c9",
    "win": "#f2b705",
    "legal": "#4caf50",
    "from": "#ff8a3d",
    "text": "#1b1b1b",
    "muted": "#b9ad98",
}

#: Largest picture side in shapes' units before scaling; a rules example never needs more.
MAX_SHAPES = 2000

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True)
class Polygon:
    points: Sequence[Point]
    fill: str
    stroke: str = COLOURS["grid"]
    width: float = 0.06
    cell: str | None = None
    mark: str | None = None


@dataclass(frozen=True, slots=True)
class Circle:
    centre: Point
    radius: float
    fill: str
    stroke: str = COLOURS["text"]
    width: float = 0.05
    cell: str | None = None
    mark: str | None = None


@dataclass(frozen=True, slots=True)
class Segment:
    a: Point
    b: Point
    stroke: str
    width: float = 0.12
    cell: str | None = None
    mark: str | None = None


@dataclass(frozen=True, slots=True)
class Label:
    at: Point
    text: str
    size: float = 0.45
    fill: str = COLOURS["text"]


Shape = Polygon | Circle | Segment | Label


@dataclass(slots=True)
class Picture:
    """Shapes in drawing order (later on top) and the picture's text alternative."""

    alt: str
    shapes: list[Shape] = field(default_factory=list)
    unit: float = 28.0  # pixels to one shape unit: small boards draw larger

    def add(self, *shapes: Shape) -> None:
        if len(self.shapes) + len(shapes) > MAX_SHAPES:
            raise ValueError(f"a rules picture holds at most {MAX_SHAPES} shapes: show a smaller position")
        self.shapes.extend(shapes)


def axial_centre(q: float, r: float, size: float = 1.0) -> Point:
    """The centre of pointy-topped hexagon (q, r) in axial coordinates (E = +q, SE = +r), cell radius ``size``."""
    return (size * SQRT3 * (q + r / 2), size * 1.5 * r)


def hexagon(centre: Point, size: float = 1.0) -> list[Point]:
    """The corners of a pointy-topped hexagon of radius ``size``."""
    cx, cy = centre
    return [
        (cx + size * math.cos(math.radians(60 * i - 30)), cy + size * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def piece_colour(side: str) -> str:
    """The fill of a stone or piece of ``side`` (a seat or side name: black, white, x, o, ...)."""
    return COLOURS.get(side, COLOURS["muted"])


def ink_on(fill: str) -> str:
    """A label colour that reads on ``fill``."""
    return COLOURS["white"] if fill in (COLOURS["black"], COLOURS["x"], COLOURS["o"]) else COLOURS["text"]


def _bounds(shapes: Iterable[Shape]) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    for s in shapes:
        if isinstance(s, Polygon):
            xs += [p[0] for p in s.points]
            ys += [p[1] for p in s.points]
        elif isinstance(s, Circle):
            xs += [s.centre[0] - s.radius, s.centre[0] + s.radius]
            ys += [s.centre[1] - s.radius, s.centre[1] + s.radius]
        elif isinstance(s, Segment):
            xs += [s.a[0], s.b[0]]
            ys += [s.a[1], s.b[1]]
        else:
            xs += [s.at[0] - s.size, s.at[0] + s.size]
            ys += [s.at[1] - s.size, s.at[1] + s.size]
    if not xs:
        return (0.0, 0.0, 1.0, 1.0)
    return (min(xs), min(ys), max(xs), max(ys))


def _n(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".")


def _data(cell: str | None, mark: str | None) -> str:
    out = ""
    if cell is not None:
        out += f' data-cell="{escape(cell)}"'
    if mark is not None:
        out += f' data-mark="{escape(mark)}"'
    return out


def _shape_svg(s: Shape) -> str:
    if isinstance(s, Polygon):
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in s.points)
        return (
            f'<polygon points="{points}" fill="{s.fill}" stroke="{s.stroke}" stroke-width="{_n(s.width)}"'
            f"{_data(s.cell, s.mark)}/>"
        )
    if isinstance(s, Circle):
        return (
            f'<circle cx="{_n(s.centre[0])}" cy="{_n(s.centre[1])}" r="{_n(s.radius)}" fill="{s.fill}" '
            f'stroke="{s.stroke}" stroke-width="{_n(s.width)}"{_data(s.cell, s.mark)}/>'
        )
    if isinstance(s, Segment):
        return (
            f'<line x1="{_n(s.a[0])}" y1="{_n(s.a[1])}" x2="{_n(s.b[0])}" y2="{_n(s.b[1])}" stroke="{s.stroke}" '
            f'stroke-width="{_n(s.width)}" stroke-linecap="round"{_data(s.cell, s.mark)}/>'
        )
    return (
        f'<text x="{_n(s.at[0])}" y="{_n(s.at[1])}" font-size="{_n(s.size)}" fill="{s.fill}" '
        f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif">{escape(s.text)}</text>'
    )


def to_svg(picture: Picture, *, margin: float = 0.4) -> str:
    """The picture as a standalone SVG document (``role="img"``, its ``alt`` as the title)."""
    unit = picture.unit
    x0, y0, x1, y1 = _bounds(picture.shapes)
    x0, y0 = x0 - margin, y0 - margin
    w, h = x1 - x0 + margin, y1 - y0 + margin
    alt = escape(picture.alt)
    body = "\n".join(_shape_svg(s) for s in picture.shapes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_n(x0)} {_n(y0)} {_n(w)} {_n(h)}" '
        f'width="{round(w * unit)}" height="{round(h * unit)}" role="img" aria-label="{alt}">\n'
        f"<title>{alt}</title>\n"
        f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(w)}" height="{_n(h)}" fill="{COLOURS["board"]}" rx="0.2"/>\n'
        f"{body}\n</svg>\n"
    )
