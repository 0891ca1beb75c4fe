"""A tiny two-player betting game with one hidden card each, for tests only. Importing this
module registers it as ``test_hidden_card`` (imperfect information).

Each player holds a secret card 0..``cards``-1; engines have no randomness, so the rule option
``deal`` fixes both (player 0 holds ``deal // cards``, player 1 ``deal % cards``) and a
simulation varies it. Player 0 checks or bets. After a check player 1 checks (showdown) or
bets; facing a bet a player calls (showdown) or folds (and loses). At the showdown the higher
card wins and equal cards draw. Actions are public; the cards are shown only at a showdown.
"""

from __future__ import annotations

from typing import Any

from tabletop_lab.core import TERMINAL, Game, GameInfo, Option, Result, State, check_keys
from tabletop_lab.errors import ActionSyntaxError, PositionError, RulesError
from tabletop_lab.registry import register_game

ACTIONS = ("check", "bet", "call", "fold")
_CHECK, _BET, _CALL, _FOLD = range(4)
#: The legal betting sequences that are not over yet, and what the player to move may do there.
_CHOICES = {(): (_CHECK, _BET), (_CHECK,): (_CHECK, _BET), (_BET,): (_CALL, _FOLD), (_CHECK, _BET): (_CALL, _FOLD)}
_ENDED = ((_CHECK, _CHECK), (_BET, _CALL), (_BET, _FOLD), (_CHECK, _BET, _CALL), (_CHECK, _BET, _FOLD))


@register_game
class HiddenCardGame(Game):
    parts = {"board": "tests.widgets.toy_boards:HiddenCardBoard"}  # its board adapter, drawn in plain text
    info = GameInfo(
        name="test_hidden_card",
        title="Hidden card (test)",
        summary="Check or bet on a secret card; a bet is called or folded; the higher card wins the showdown.",
        players=(2,),
        information="imperfect",
        max_actions=3,
    )
    option_specs = (
        Option("cards", 3, "card values 0..cards-1", choices=(2, 3, 4, 5)),
        Option("deal", 5, "player 0 holds deal // cards, player 1 deal % cards", choices=tuple(range(25))),
    )

    @classmethod
    def harness_configs(cls) -> list[dict[str, Any]]:
        """A few deals: equal cards, each player ahead, the fewest and the most cards."""
        return [{}, {"deal": 0}, {"deal": 7}, {"cards": 2, "deal": 1}, {"cards": 5, "deal": 24}]

    def _check_options(self) -> None:
        cards = self.options["cards"]
        if self.options["deal"] >= cards * cards:
            raise RulesError(f"test_hidden_card: option deal must be 0..{cards * cards - 1} with {cards} cards")

    def new_initial_state(self) -> HiddenCardState:
        cards = self.options["cards"]
        return HiddenCardState(self, list(divmod(self.options["deal"], cards)), [])

    def state_from_dict(self, data: Any) -> HiddenCardState:
        """``{"game": "test_hidden_card", "cards": [c0, c1], "bets": ["check", ...]}``."""
        check_keys(data, ("game", "cards", "bets"), "test_hidden_card")
        cards, bets = data["cards"], data["bets"]
        limit = self.options["cards"]
        if (
            not isinstance(cards, list)
            or len(cards) != 2
            or any(type(c) is not int or not 0 <= c < limit for c in cards)
        ):
            raise PositionError(f"test_hidden_card: field 'cards' must be two integers 0..{limit - 1}")
        if not isinstance(bets, list) or any(b not in ACTIONS for b in bets):
            raise PositionError(f"test_hidden_card: field 'bets' must list actions among {', '.join(ACTIONS)}")
        sequence = tuple(ACTIONS.index(b) for b in bets)
        if sequence not in _CHOICES and sequence not in _ENDED:
            raise PositionError(f"test_hidden_card: field 'bets' is no legal betting sequence: {bets}")
        state = HiddenCardState(self, list(cards), list(sequence))
        state._start = state.to_dict()
        return state

    def state_from_observation(self, data: Any, player: int, rng: Any) -> HiddenCardState:
        """``observation(player)`` with the masked card (``None``) drawn from ``rng``."""
        if isinstance(data, dict) and isinstance(data.get("cards"), list):
            cards = [rng.randrange(self.options["cards"]) if c is None else c for c in data["cards"]]
            data = {**data, "cards": cards}
        return self.state_from_dict(data)


class HiddenCardState(State):
    def __init__(self, game: HiddenCardGame, cards: list[int], bets: list[int]):
        super().__init__(game)
        self.cards = cards
        self.bets = bets

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.bets) % 2

    def is_terminal(self) -> bool:
        return tuple(self.bets) in _ENDED

    def showdown(self) -> bool:
        """Whether the cards have been shown: the game ended without a fold."""
        return self.is_terminal() and self.bets[-1] != _FOLD

    def result(self) -> Result | None:
        if not self.is_terminal():
            return None
        if not self.showdown():
            folder = (len(self.bets) - 1) % 2
            winners = (1 - folder,)
        elif self.cards[0] == self.cards[1]:
            winners = (0, 1)
        else:
            winners = (int(self.cards[1] > self.cards[0]),)
        return Result(winners, tuple(float(p in winners) for p in range(2)), "standard")

    def scores(self) -> list[float]:
        result = self.result()
        return list(result.scores) if result else [0.0, 0.0]

    def _legal_actions(self) -> list[int]:
        return list(_CHOICES[tuple(self.bets)])

    def _illegal_reason(self, action: int) -> str | None:
        self.action_to_string(action)  # raises ActionSyntaxError for an int that is no action
        if self.is_terminal():
            return "the game is over"
        if action not in _CHOICES[tuple(self.bets)]:
            return "a player checks or bets unless facing a bet, and calls or folds when facing one"
        return None

    def _apply(self, action: int) -> None:
        self.bets.append(action)

    def _copy_into(self, new: HiddenCardState) -> None:
        new.cards = list(self.cards)
        new.bets = list(self.bets)

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 0 <= action < len(ACTIONS):
            raise ActionSyntaxError(f"test_hidden_card: no action {action!r}; actions are 0..{len(ACTIONS) - 1}")
        return ACTIONS[action]

    def string_to_action(self, text: str) -> int:
        if text not in ACTIONS:
            raise ActionSyntaxError(f"test_hidden_card: {text!r} is not one of {', '.join(ACTIONS)}")
        return ACTIONS.index(text)

    def to_dict(self) -> dict:
        return {"game": "test_hidden_card", "cards": list(self.cards), "bets": [ACTIONS[b] for b in self.bets]}

    def observation(self, player: int) -> dict:
        """The position with the other player's card masked (``None``) until a showdown."""
        self._check_player(player)
        shown = self.showdown()
        cards = [c if p == player or shown else None for p, c in enumerate(self.cards)]
        return {**self.to_dict(), "cards": cards}

    def reveals(self, action: int) -> bool:
        """The cards are shown at a showdown."""
        return self.child(action).showdown()

    def resample(self, player: int, rng: Any) -> HiddenCardState:
        """A copy with the other player's card drawn from ``rng``, unless the showdown showed it."""
        self._check_player(player)
        world = self.clone()
        if not self.showdown():
            world.cards[1 - player] = rng.randrange(self.game.options["cards"])
        return world

    def key(self) -> tuple:
        return (tuple(self.cards), tuple(self.bets))
