# ruff: noqa: I001
"""A bot written exactly like the MyBot of Hivemaker's README; only the import lines differ.

Hivemaker's imports were::

    from bot.bot import BaseBot, PositionEvaluation
    from bot.capabilities import BwsV1AlphaCapability, Capabilities, Meta, default_capabilities
    from models import Cell, Coord, Match, Player
    from game.game import valid_placement_cells

Serve it with ``PYTHONPATH=src python examples/hivemaker_style_bot.py`` (port 8002), or from code with
``hexarena.bots.sdk.run(MyBot)``.
"""

from hexarena.bots.sdk import BaseBot, PositionEvaluation
from hexarena.bots.sdk import BwsV1AlphaCapability, Capabilities, Meta, default_capabilities
from hexarena.bots.sdk import Cell, Coord, Match, Player
from hexarena.bots.sdk import valid_placement_cells


# Kept character for character as in the README:
# fmt: off
class MyBot(BaseBot):

    @classmethod
    def capabilities(cls) -> Capabilities:
        caps = default_capabilities(BwsV1AlphaCapability(
            move_time_limit=True,
            evaluation=True,
        ))
        caps.meta = Meta(name="MyBot", tags=["minimax"])
        return caps

    def choose_move(
        self,
        cells: list[Cell],
        player: Player,
        match: Match,
    ) -> tuple[Coord, Coord]:
        candidates = valid_placement_cells(cells, match.view_distance)
        # ... your logic
        return candidates[0], candidates[1]

    def evaluate(
        self,
        cells: list[Cell],
        player: Player,
        match: Match,
    ) -> PositionEvaluation:
        # only needed if evaluation=True in capabilities
        return PositionEvaluation(heuristic=0.0)

    def on_config(self, depth: int | None, extras: dict) -> None:
        # only needed if config={} in capabilities
        if depth is not None:
            self.depth = depth

# fmt: on


if __name__ == "__main__":
    from hexarena.bots.sdk import run

    run(MyBot)
