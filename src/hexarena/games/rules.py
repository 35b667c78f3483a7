"""Every game's rules for people, declared next to its engine, with pictures its own engine draws.

A game publishes its rules as a ``Rules`` value in the ``hexarena.rules`` entry-point group, under the game's
name (``hex = "hexarena.games.hex.rules:RULES"``; a plugin declares its own the same way). The rules are short
sections of text, each with example positions given as move lists. :func:`publish` replays every example's
moves through the game's own rules engine and hands the position to the game's ``draw`` function, which lays the
picture out from what the engine reports (its ``to_json`` and ``legal_view``: the winning line the engine found,
the cells a Hive piece may reach). So a picture cannot drift from the rules: an example whose moves the engine
refuses fails the docs build and the tests, naming the game, the example and the move.

The docs site (``tools/mkdocs_hooks.py``) and the web UI (``GET /api/games/{name}/rules``) read the same
:func:`publish` output. A game that publishes no rules gets ``None`` from :func:`rules_of`, which callers show
as "no rules published".

Text is Markdown restricted to what both readers show: paragraphs, ``- `` bullet lines and ```code```.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

# typing_extensions' TypedDict: RulesJson is the rules route's response model, which pydantic reads so on 3.11
from typing_extensions import TypedDict

from hexarena.core.errors import ConfigError, HexarenaError
from hexarena.core.game import Game, ParamValue
from hexarena.core.registry import describe_entry_point, discover
from hexarena.games.pictures import Picture, to_svg

S = TypeVar("S")
M = TypeVar("M")

#: The entry-point group rules are declared in, one entry per game name.
RULES_GROUP = "hexarena.rules"

#: Bounds on what one game may publish, so a plugin's rules cannot make a page or a build unbounded.
MAX_SECTIONS = 40
MAX_EXAMPLES = 40
MAX_MOVES = 200
MAX_TEXT = 20_000


@dataclass(frozen=True, slots=True)
class Example:
    """A position reached by playing ``moves`` (the game's notation) from ``game.new(**params)``.

    ``show`` asks the game's ``draw`` for something extra, in words the game defines (Hive: a piece whose legal
    destinations are marked; HTTTX: ``legal`` for the cells the next stone may take)."""

    caption: str
    moves: Sequence[str] = ()
    params: Mapping[str, ParamValue] = field(default_factory=dict)
    show: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    title: str
    text: str
    examples: Sequence[Example] = ()


#: Lays out the picture of ``state`` (reached by the example) with the game's own geometry.
Draw = Callable[[Any, Any, Example], Picture]


@dataclass(frozen=True, slots=True)
class Rules:
    """A game's rules: a one-line summary, sections, and the function that draws its positions."""

    summary: str
    sections: Sequence[Section]
    draw: Draw | None = None


class ExampleJson(TypedDict):
    caption: str
    moves: list[str]
    params: dict[str, ParamValue]
    #: The position, drawn by the game's own engine.
    svg: str


class SectionJson(TypedDict):
    title: str
    text: str
    examples: list[ExampleJson]


class RulesJson(TypedDict):
    """A game's rules as the API and the docs site read them; ``published`` false: the game has none."""

    game: str
    title: str
    published: bool
    summary: str
    sections: list[SectionJson]


_RULES: dict[str, Rules] = {}
_BROKEN: dict[str, str] = {}
_loaded = False


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for ep, obj in discover(RULES_GROUP):
        if isinstance(obj, Exception):
            _BROKEN[ep.name] = f"the rules of {ep.name!r} ({describe_entry_point(ep)}) failed to load: {obj}"
        elif not isinstance(obj, Rules):
            _BROKEN[ep.name] = f"{describe_entry_point(ep)} names {type(obj).__name__}, not hexarena Rules"
        elif ep.name not in _RULES:  # hexarena's own come first (``discover``): a plugin cannot replace them
            _RULES[ep.name] = obj


def rules_of(name: str) -> Rules | None:
    """The rules game ``name`` publishes, or None if it publishes none; ConfigError if its rules are broken."""
    _load()
    if name in _BROKEN:
        raise ConfigError(_BROKEN[name])
    return _RULES.get(name)


def no_rules_message(game: Game[S, M]) -> str:
    """What a reader is told about a game that publishes no rules."""
    return (
        f"No rules published for {game.title}: its package declares none (the hexarena.rules entry point; see "
        "the guide 'Add a game'). Its parameters and legal moves are still listed where you play it."
    )


def _check(name: str, rules: Rules) -> None:
    if len(rules.sections) > MAX_SECTIONS:
        raise ConfigError(f"the rules of {name!r} have {len(rules.sections)} sections; at most {MAX_SECTIONS}")
    for section in rules.sections:
        if len(section.examples) > MAX_EXAMPLES or len(section.text) > MAX_TEXT:
            raise ConfigError(
                f"section {section.title!r} of the rules of {name!r} is too long: at most {MAX_EXAMPLES} examples "
                f"and {MAX_TEXT} characters"
            )
        for example in section.examples:
            if len(example.moves) > MAX_MOVES:
                raise ConfigError(f"example {example.caption!r} of {name!r} has more than {MAX_MOVES} moves")
            if example.moves and rules.draw is None:
                raise ConfigError(f"the rules of {name!r} have examples but no draw function to picture them")


def position(game: Game[S, M], example: Example) -> S:
    """The state ``example`` reaches, through the game's own ``parse`` and ``play``; a move the engine refuses
    is a ConfigError naming the example and the move."""
    state = game.new(**dict(example.params))
    for i, text in enumerate(example.moves, 1):
        try:
            state = game.play(state, game.parse(text))
        except HexarenaError as exc:
            raise ConfigError(
                f"example {example.caption!r} of the {game.name} rules: move {i} {text!r} is refused by the "
                f"engine: {exc}"
            ) from exc
    return state


def picture(game: Game[S, M], rules: Rules, example: Example) -> str:
    """The SVG of ``example``'s position, drawn by the game's ``draw`` from the replayed state."""
    if rules.draw is None:
        raise ConfigError(f"the rules of {game.name!r} have no draw function")
    return to_svg(rules.draw(game, position(game, example), example))


def publish(game: Game[S, M], rules: Rules) -> RulesJson:
    """The rules as JSON for the API and the docs: every example with its moves and its SVG picture."""
    _check(game.name, rules)
    return {
        "game": game.name,
        "title": game.title,
        "published": True,
        "summary": rules.summary,
        "sections": [
            {
                "title": s.title,
                "text": s.text,
                "examples": [
                    {
                        "caption": e.caption,
                        "moves": list(e.moves),
                        "params": dict(e.params),
                        "svg": picture(game, rules, e),
                    }
                    for e in s.examples
                ],
            }
            for s in rules.sections
        ],
    }


def unpublished(game: Game[S, M]) -> RulesJson:
    """The answer for a game without rules: the same shape, no sections, and a message that says so."""
    return {
        "game": game.name,
        "title": game.title,
        "published": False,
        "summary": no_rules_message(game),
        "sections": [],
    }


def published(game: Game[S, M]) -> RulesJson:
    """:func:`publish` for a game with rules, :func:`unpublished` for one without."""
    rules = rules_of(game.name)
    return unpublished(game) if rules is None else publish(game, rules)
