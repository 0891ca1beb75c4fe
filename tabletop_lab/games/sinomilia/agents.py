"""Sinomilia agents that read only what their seat may see (``state.observation(me)``).

``HeuristicAgent`` plays toward its own card: it sets mid-range cards, adds chips while the table
is below its card, passes once it is there, changes its card when the table has run past it,
and bluffs with moon chips at the rate ``bluff``. ``change=False`` and ``moon=False`` take those
moves away (for studies of what they are worth): the agent then never changes its card, or plays
every chip sun side up. ``AGENTS`` registers it for Sinomilia: ``make_agent("sinomilia_heuristic",
game=game)``, the seat pickers and ``simulate("sinomilia", ["sinomilia_heuristic", "ismcts"])``.

``SinomiliaExpert`` (``"expert"``) is information-set MCTS at the budget that did best against the
heuristic (``tabletop_lab.agents.expert``); it is not yet measurably stronger than the heuristic.
"""

from __future__ import annotations

import math

from ...agents import Agent, hidden_expert_class
from ...core import Game, State

__all__ = ["AGENTS", "HeuristicAgent", "SinomiliaExpert"]

#: The card the agent likes to set: the table most often ends with a few chips on it.
PREFERRED_CARD = 4


class HeuristicAgent(Agent):
    """Plays toward its card, bluffs with moon chips at rate ``bluff`` (0 to 1); ``change`` and
    ``moon`` say whether it may change its card and play moon chips."""

    name = "sinomilia_heuristic"
    title = "Heuristic"

    def __init__(self, seed: int | None = None, bluff: float = 0.2, change: bool = True, moon: bool = True):
        super().__init__(seed)
        if type(bluff) not in (int, float) or not 0 <= bluff <= 1 or math.isnan(bluff):
            raise ValueError(f"HeuristicAgent: bluff must be a number from 0 to 1, got {bluff!r}")
        for name, value in (("change", change), ("moon", moon)):
            if type(value) is not bool:
                raise ValueError(f"HeuristicAgent: {name} must be True or False, got {value!r}")
        self.bluff = bluff
        self.change = change
        self.moon = moon

    @classmethod
    def unsupported_reason(cls, game: Game) -> str | None:
        return None if game.name == "sinomilia" else "it plays Sinomilia only"

    def describe(self) -> list[str]:
        words = [f"bluffs {round(100 * self.bluff)}%"]
        words += [
            f"never {verb}"
            for verb, allowed in (("changes", self.change), ("plays moon chips", self.moon))
            if not allowed
        ]
        return words

    def settings(self) -> dict:
        taken_away = {name: False for name in ("change", "moon") if not getattr(self, name)}
        return {"bluff": self.bluff, **taken_away}  # the label names only the moves taken away

    def choose_action(self, state: State) -> int:
        self._check_supported(state)
        me = state.current_player()
        seen = state.observation(me)  # never the true state: the opponent's card stays hidden
        return state.string_to_action(self._choose(seen, me))

    def _choose(self, seen: dict, me: int) -> str:
        if seen["phase"] == "set":
            hand = seen["hands"][me]
            weights = [math.exp(-abs(k - PREFERRED_CARD) / 1.5) for k in hand]
            return f"set {self.rng.choices(hand, weights)[0]}"
        card = seen["set"][me]
        table = sum(seen["table"])
        pile = seen["chips"][me]
        if pile == 0:
            return "pass"
        if table < card:  # climb toward the card; a moon chip when one more chip reaches it
            bluffing = self.rng.random() < self.bluff
            return "chip moon" if self.moon and (table + 1 == card or bluffing) else "chip sun"
        if table == card:
            return "pass"
        if self.change and not seen["changed"][me] and pile >= 2:
            options = seen["hands"][me] + [card]
            best = min(options, key=lambda k: (abs(k - table), -k))
            if abs(best - table) + 1 < abs(card - table):
                return f"change {best}"
        if self.moon and table + 1 < 9 and self.rng.random() < self.bluff:
            return "chip moon"  # a bluff: look strong, threaten to end the round on a pass
        return "pass"


#: Measured against the heuristic (20 whole games, colours alternating): ``ismcts:iterations=1000``
#: 0.55 [0.34, 0.74], ``ismcts:iterations=4000`` 0.35 [0.18, 0.57]: more search is no better here.
SinomiliaExpert = hidden_expert_class("sinomilia", "Sinomilia", iterations=1000, module=__name__)

#: Sinomilia's own agents, by registry name (``Game.part("agents")``).
AGENTS: dict[str, type[Agent]] = {HeuristicAgent.name: HeuristicAgent, "expert": SinomiliaExpert}
