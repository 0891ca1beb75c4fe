"""Sinomilia: secret number cards and sun/moon chips (``docs/rules/sinomilia.md``).

Actions are small ints, listed in the spec's order (section 8) by their value::

    0..9    set k        (setting phase)
    10      chip sun
    11      chip moon
    12..21  change k     (k = action - 12, the new card)
    22      pass

Hands and discards are kept as 10-bit masks (bit k = card k) so that the legal lists come from
precomputed tables; ``to_dict()`` turns them into the spec's sorted lists. A round resolves
atomically inside the action that ends it (section 3), and its outcome is kept as
``last_round_report``: public information (both cards are revealed) that belongs to the
observations but not to the position JSON, so a position loaded from JSON has no report.

Hidden information (spec 7.2): ``observation(p)`` is the masked position plus a last key
``"last_round"`` (the report as a dict, ``null`` when none); ``observed_action_string(a, p)``
masks the opponent's ``set k``/``change k`` and, as in OpenSpiel, is asked of the state the action
is played from; ``information_state_string(p)`` masks the history using the recorded mover of
each action; ``resample(p, rng)`` replays the history with the opponent's unrevealed card
choices redrawn. ``result().reason`` is ``"chips"``, ``"hand"`` or ``"cap"`` (``"chips"`` when
a pile is 0 and a hand holds 2 cards at once).
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

from ...core import (
    TERMINAL,
    Game,
    GameInfo,
    Option,
    Result,
    State,
    canonical_json,
    check_keys,
    positive_int_or_none,
)
from ...errors import ActionSyntaxError, IllegalActionError, PositionError, excerpt
from ...registry import register_game

PLAYER_NAMES = ("Orange", "Green")
CHIPS_EACH = 15
TOTAL_CHIPS = 2 * CHIPS_EACH
TABLE_LIMIT = 9  # C1: the round ends when the table holds this many chips
ALL_CARDS = (1 << 10) - 1

SET = 0  # action k: set card k
SUN = 10
MOON = 11
CHANGE = 12  # action CHANGE + k: change to card k
PASS = 22
NUM_ACTIONS = 23

PHASES = ("set", "play", "over")
PHASE_SET, PHASE_PLAY, PHASE_OVER = range(3)
TURNS = ("none", "pass", "sun", "moon", "change")
TURN_NONE, TURN_PASS, TURN_SUN, TURN_MOON, TURN_CHANGE = range(5)

KEYS = (
    "game",
    "round",
    "phase",
    "start_player",
    "to_move",
    "chips",
    "table",
    "hands",
    "set",
    "discards",
    "changed",
    "last_action",
    "last_turn",
    "last_round_winner",
    "cap_reached",
)
_ACTION = re.compile(r"^(?:(set|change) ([0-9])|chip (sun|moon)|pass)$")


def cards_of(mask: int) -> list[int]:
    """The cards of a 10-bit mask, ascending."""
    return [k for k in range(10) if mask >> k & 1]


def mask_of(cards: list[int]) -> int:
    mask = 0
    for k in cards:
        mask |= 1 << k
    return mask


# Legal lists by mask, computed once: the setting phase (hand) and a play turn (hand + set card).
_SET_LISTS = tuple(tuple(k for k in range(10) if m >> k & 1) for m in range(1 << 10))
_PLAY_LISTS = tuple((SUN, MOON) + tuple(CHANGE + k for k in range(10) if m >> k & 1) + (PASS,) for m in range(1 << 10))


class RoundReport(NamedTuple):
    """The public outcome of a resolved round (spec 3 and 7.2): both cards are revealed.

    ``decided`` says how the winner was found: ``"distance"``, ``"last_action"`` (a tie, the
    last Actor lost) or ``"no_action"`` (a tie with no Action: the first passer won).
    """

    round: int
    cards: tuple[int, int]
    table: int  # T, chips on the table
    moon: int  # M, moon chips among them
    winner: int
    decided: str
    owed: int  # bonus + 2 + M
    paid: int  # min(owed, loser's pile)
    table_taken: int  # T, taken by the winner

    def to_dict(self) -> dict:
        return {**self._asdict(), "cards": list(self.cards)}


GAME_INFO = GameInfo(
    name="sinomilia",
    menu_rank=4,
    title="Sinomilia",
    summary="Two-player bluffing: set a secret number card, then play sun or moon chips; "
    "the card closest to the chips on the table wins the round and the payout.",
    players=(2,),
    information="imperfect",
    # A round takes at most 2 sets, 9 chips, 2 changes and a pass before each and after the
    # last of those 11 Actions: 25 actions; round_cap 200 bounds a game by 5,000.
    max_actions=5000,
    player_names=PLAYER_NAMES,
    rules_version=1,  # raise it whenever the engine's behaviour changes (tabletop_lab.versions)
)


@register_game
class SinomiliaGame(Game):
    info = GAME_INFO
    option_specs = (
        Option("first_player", 0, "start player of round 1: 0 (Orange) or 1 (Green)", choices=(0, 1)),
        Option(
            "round_cap",
            200,
            "the game ends, scored by chips, after this many rounds (null: no cap)",
            check=positive_int_or_none,
            allowed="a positive integer or null",
        ),
    )

    @classmethod
    def harness_configs(cls) -> list[dict[str, Any]]:
        """The defaults, Green starting, a cap short enough to be hit, and no cap at all."""
        return [{}, {"first_player": 1}, {"round_cap": 2}, {"first_player": 1, "round_cap": None}]

    @property
    def can_draw(self) -> bool:
        """No: a round's tie names a winner, and so does a game scored by chips."""
        return False

    def state_space_log10(self) -> float:
        """A bound on the positions (the round number aside: only the safety cap reads it).
        Per player, each card 0-8 is in hand or discarded and at most one card is set: ``2**9 *
        11``. The 30 chips lie in two piles and at most 9 on the table, sun or moon: ``sum((t + 1)
        * (31 - t) for t in 0..9)`` = 1,375. Then phase 3, player to move 3, start player 2,
        change cards 4, last Action 3, last turn 5, last round winner 3, cap flag 2."""
        chips = sum((t + 1) * (31 - t) for t in range(10))
        return math.log10((2**9 * 11) ** 2 * chips * 3 * 3 * 2 * 4 * 3 * 5 * 3 * 2)

    def new_initial_state(self) -> SinomiliaState:
        state = SinomiliaState(self)
        state.start = state.to_move = self.options["first_player"]
        return state

    def state_from_dict(self, data: Any) -> SinomiliaState:
        state = _parse_position(self, data)
        _validate(state, self.options["round_cap"])
        state._start = state.to_dict()
        return state

    def state_from_observation(self, data: Any, player: int, rng: Any) -> SinomiliaState:
        """A position ``player`` cannot tell from ``observation(player)``: the opponent holds every
        card not in their discards (spec 3: a played card is discarded, a 9 comes back), their set
        card ``"?"`` is drawn from those with ``rng``, the rest is their hand."""
        check_keys(data, ("game", "observer", *KEYS[1:], "last_round"), "sinomilia")
        if data["observer"] != player:
            raise PositionError(f"sinomilia: this is the view of player {excerpt(data['observer'])}, not {player}")
        opponent = 1 - player
        discards = data["discards"]
        if not isinstance(discards, list) or len(discards) != 2 or not isinstance(discards[opponent], list):
            raise PositionError("sinomilia: field 'discards' must be two lists of cards")
        held = [k for k in range(10) if k not in discards[opponent]]
        position = {k: data[k] for k in KEYS}
        position["set"], position["hands"] = list(data["set"]), list(data["hands"])
        if position["set"][opponent] == "?":
            card = rng.choice(held)
            position["set"][opponent] = card
            held.remove(card)
        position["hands"][opponent] = held
        return self.state_from_dict(position)


class SinomiliaState(State):
    """The full state, both set cards included; players see ``observation(p)``."""

    def __init__(self, game: SinomiliaGame):
        super().__init__(game)
        self.round = 1
        self.phase = PHASE_SET
        self.start = 0
        self.to_move: int | None = 0
        self.chips = [CHIPS_EACH, CHIPS_EACH]
        self.sun = 0
        self.moon = 0
        self.hands = [ALL_CARDS, ALL_CARDS]
        self.cards = [-1, -1]  # set cards, -1 when none
        self.discards = [0, 0]
        self.changed = [False, False]
        self.last_action: int | None = None
        self.last_turn = TURN_NONE
        self.last_round_winner: int | None = None
        self.cap_reached = False
        self.last_round_report: RoundReport | None = None
        self._movers: list[int] = []  # who took each action of the history

    # --- rules hooks ------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == PHASE_OVER else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def end_reason(self) -> str | None:
        """``"chips"`` (a pile is 0), ``"hand"`` (a hand of exactly 2), ``"cap"``, or ``None``.

        When a pile is 0 and a hand holds 2 cards at once, ``"chips"`` is reported (the
        condition listed first; Decision 13: the winner does not depend on it).
        """
        if self.phase != PHASE_OVER:
            return None
        if 0 in self.chips:
            return "chips"
        if self.cap_reached:
            return "cap"
        return "hand"

    def result(self) -> Result | None:
        if self.phase != PHASE_OVER:
            return None
        c0, c1 = self.chips
        winner = self.last_round_winner if c0 == c1 else (0 if c0 > c1 else 1)
        return Result((winner,), (c0, c1), self.end_reason(), self.cap_reached)

    def scores(self) -> list[int]:
        """Each player's pile (the spec's score for Sinomilia)."""
        return list(self.chips)

    def evaluate(self) -> list[float]:
        """Pile difference as a share of all chips."""
        if self.phase == PHASE_OVER:
            return self.returns()
        lead = (self.chips[0] - self.chips[1]) / TOTAL_CHIPS
        return [lead, -lead]

    def legal_actions(self) -> list[int]:
        """The legal actions in the spec's order, from tables built once.

        Overrides core's ``legal_actions`` (instead of its ``_legal_actions`` hook) to save a call
        on the hottest path of playouts; ``[]`` at the end as core's.
        """
        phase = self.phase
        if phase == PHASE_PLAY:
            mover = self.to_move
            if not self.chips[mover]:
                return [PASS]
            if self.changed[mover]:
                return [SUN, MOON, PASS]
            return list(_PLAY_LISTS[self.hands[mover] | 1 << self.cards[mover]])
        if phase == PHASE_SET:
            return list(_SET_LISTS[self.hands[self.to_move]])
        return []

    def _illegal_reason(self, action: int) -> str | None:
        # fast path first: the legal cases of a playout (core has checked that action is an int)
        phase = self.phase
        if phase == PHASE_PLAY:
            if action == PASS:
                return None
            mover = self.to_move
            if self.chips[mover]:
                if SUN <= action < CHANGE:
                    return None
                if (
                    CHANGE <= action < PASS
                    and not self.changed[mover]
                    and (self.hands[mover] | 1 << self.cards[mover]) >> (action - CHANGE) & 1
                ):
                    return None
        elif phase == PHASE_SET and 0 <= action < SUN and self.hands[self.to_move] >> action & 1:
            return None
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise ActionSyntaxError(
                f"sinomilia: action {excerpt(action)} is not an action; actions are 0..{NUM_ACTIONS - 1}"
            )
        return self._why_illegal(action)

    def _why_illegal(self, action: int) -> str:
        """The rule an illegal action breaks, in words."""
        if self.phase == PHASE_OVER:
            return f"the game is over ({self.end_reason()}); no action is legal"
        name = PLAYER_NAMES[self.to_move]
        if self.phase == PHASE_SET:
            if action >= SUN:
                first = "the start player" if self.to_move == self.start else "the other player"
                return (
                    f"out of turn: round {self.round} is in its setting phase and {name} ({first}) must "
                    "set a card first (section 2.1); chips, changes and passes come after both cards are set"
                )
            return f"card {action} is not in {name}'s hand {cards_of(self.hands[self.to_move])} (section 2.1)"
        if action < SUN:
            return (
                f"out of turn: cards are set only at the start of a round (section 2.1); {name} may take "
                f"the set card back with 'change {action}' (section 2.2)"
            )
        if not self.chips[self.to_move]:
            return f"{name}'s pile is empty: a player without chips can only pass (section 2.2, Decision 10)"
        if self.changed[self.to_move]:
            return f"{name} has already changed this round; change is allowed once per round (Decision 11)"
        card = action - CHANGE
        return (
            f"card {card} is neither in {name}'s hand {cards_of(self.hands[self.to_move])} nor {name}'s set card "
            "(section 2.2, change step 3)"
        )

    def _apply(self, action: int) -> None:
        mover = self.to_move
        self._movers.append(mover)
        other = 1 - mover
        if action < SUN:  # set
            self.hands[mover] &= ~(1 << action)
            self.cards[mover] = action
            if mover == self.start:
                self.to_move = other
            else:
                self.phase = PHASE_PLAY
                self.to_move = self.start
        elif action == PASS:
            if self.last_turn == TURN_PASS or self.last_turn == TURN_MOON:  # C2, C3
                self._resolve()
            else:
                self.last_turn = TURN_PASS
                self.to_move = other
        elif action < CHANGE:  # chip
            self.chips[mover] -= 1
            if action == SUN:
                self.sun += 1
                self.last_turn = TURN_SUN
            else:
                self.moon += 1
                self.last_turn = TURN_MOON
            self.last_action = mover
            if self.sun + self.moon == TABLE_LIMIT:  # C1
                self._resolve()
            else:
                self.to_move = other
        else:  # change
            self.chips[mover] -= 1
            self.chips[other] += 1
            self.hands[mover] = (self.hands[mover] | 1 << self.cards[mover]) & ~(1 << (action - CHANGE))
            self.cards[mover] = action - CHANGE
            self.changed[mover] = True
            self.last_action = mover
            self.last_turn = TURN_CHANGE
            self.to_move = other

    def _resolve(self) -> None:
        """Section 3 at once: reveal, winner, payment, discards, reset, game end check."""
        table = self.sun + self.moon
        moon = self.moon
        c0, c1 = self.cards
        d0, d1 = abs(c0 - table), abs(c1 - table)
        if d0 != d1:
            winner, decided = (0 if d0 < d1 else 1), "distance"
        elif self.last_action is not None:
            winner, decided = 1 - self.last_action, "last_action"
        else:
            winner, decided = self.start, "no_action"  # the start player always passed first
        loser = 1 - winner
        chips = self.chips
        pile = chips[winner]
        owed = (5 if pile == 0 else 2 if pile == 1 else 0) + 2 + moon
        paid = owed if owed <= chips[loser] else chips[loser]
        chips[loser] -= paid
        chips[winner] += paid + table
        for player, card in ((0, c0), (1, c1)):
            if card == 9:
                self.hands[player] |= 1 << 9
            else:
                self.discards[player] |= 1 << card
        self.cards = [-1, -1]
        self.changed = [False, False]
        self.sun = self.moon = 0
        self.last_action = None
        self.last_turn = TURN_NONE
        self.last_round_winner = winner
        self.last_round_report = RoundReport(self.round, (c0, c1), table, moon, winner, decided, owed, paid, table)
        cap = self.game.options["round_cap"]
        if not chips[0] or not chips[1] or self.hands[0].bit_count() == 2 or self.hands[1].bit_count() == 2:
            self.phase = PHASE_OVER
            self.to_move = None
        elif cap is not None and self.round >= cap:
            self.phase = PHASE_OVER
            self.to_move = None
            self.cap_reached = True
        else:
            self.round += 1
            self.phase = PHASE_SET
            self.start = self.to_move = winner

    def _copy_into(self, new: SinomiliaState) -> None:
        new.chips = self.chips[:]
        new.hands = self.hands[:]
        new.cards = self.cards[:]
        new.discards = self.discards[:]
        new.changed = self.changed[:]
        new._movers = self._movers[:]

    # --- strings ------------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise ActionSyntaxError(
                f"sinomilia: action {excerpt(action)} is not an action; actions are 0..{NUM_ACTIONS - 1}"
            )
        return _ACTION_STRINGS[action]

    def string_to_action(self, text: str) -> int:
        match = _ACTION.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise ActionSyntaxError(
                f"sinomilia: {excerpt(text, limit=40)} is not an action; write 'set k', 'chip sun', 'chip moon', "
                "'change k' (k a digit 0-9) or 'pass', with single spaces"
            )
        return _STRING_ACTIONS[text]

    def play_as(self, player: int, text: str) -> None:
        """Play the move ``text`` for ``player``, refusing it when another player is to move.

        For interfaces where each seat acts on its own (two people at one screen).
        """
        self._check_player(player)
        if self.phase != PHASE_OVER and player != self.to_move:
            raise IllegalActionError(
                f"sinomilia: out of turn: it is {PLAYER_NAMES[self.to_move]}'s turn, not {PLAYER_NAMES[player]}'s "
                "(section 2: the start player sets and plays first, then the players alternate)"
            )
        self.apply_move(text)

    # --- hidden information -------------------------------------------------------------------

    def observation(self, player: int) -> dict:
        """The position as ``player`` sees it (spec 7.2), plus ``last_round``: the latest round report.

        ``"observer"`` follows ``"game"``; the opponent's set card is ``"?"`` (``null`` if
        unset) and their hand ``null``. ``last_round`` is the public report of the latest
        round resolved in this state's history (``null`` if none, e.g. right after loading a
        position); it is not part of the position format.
        """
        self._check_player(player)
        data = self.to_dict()
        opponent = 1 - player
        data["set"][opponent] = None if self.cards[opponent] < 0 else "?"
        data["hands"][opponent] = None
        report = self.last_round_report
        return {
            "game": "sinomilia",
            "observer": player,
            **{k: data[k] for k in KEYS[1:]},
            "last_round": None if report is None else report.to_dict(),
        }

    def reveals(self, action: int) -> bool:
        """Whether ``action`` ends a round: its resolution shows both set cards (spec 3)."""
        return self.child(action).last_round_report is not self.last_round_report

    def observed_action_string(self, action: int, player: int) -> str:
        """``action`` as ``player`` sees it when played from this state (OpenSpiel's convention).

        The opponent's ``set k`` and ``change k`` are masked as ``set ?`` and ``change ?``.
        """
        self._check_player(player)
        return masked_string(action) if self.to_move != player else self.action_to_string(action)

    def information_state_string(self, player: int) -> str:
        """The observation and the history, the opponent's card choices masked."""
        self._check_player(player)
        seen = " ".join(
            _ACTION_STRINGS[a] if mover == player else masked_string(a) for a, mover in zip(self._history, self._movers)
        )
        return f"{canonical_json(self.observation(player))} | {seen}"

    def resample(self, player: int, rng: Any) -> SinomiliaState:
        """A full state ``player`` cannot tell from this one, drawn with ``rng`` (a ``random.Random``).

        The opponent's unrevealed card choices are redrawn: their current set card from the
        cards they could hold (their hand + set card = {0..9} minus their discards), and every
        card they set and then changed away from, in this or earlier rounds (never revealed),
        uniformly from what they held then. Revealed cards are kept. The history is replayed
        with these choices, so the new state is reachable and its history consistent.
        """
        self._check_player(player)
        opponent = 1 - player
        start = self._start
        slots = []  # (history index or -1 for the start position, is a set action)
        if start is not None and start["set"][opponent] is not None:
            slots.append(-1)
        for i, (action, mover) in enumerate(zip(self._history, self._movers)):
            if mover == opponent and (action < SUN or CHANGE <= action < PASS):
                slots.append(i)
        # A slot is the last of its round when the opponent's next slot is a new 'set' or none follows.
        last_of_round = {}
        for n, i in enumerate(slots):
            following = slots[n + 1] if n + 1 < len(slots) else None
            last_of_round[i] = following is None or self._history[following] < SUN
        hidden_now = self.cards[opponent] >= 0
        current = rng.choice(cards_of(self.hands[opponent] | 1 << self.cards[opponent])) if hidden_now else -1
        final_slot = slots[-1] if hidden_now and slots else None

        def choice(slot: int, held: int, true_card: int) -> int:
            if slot == final_slot:
                return current
            if last_of_round[slot]:
                return true_card  # revealed at the end of its round
            return rng.choice(cards_of(held))

        game = self.game
        if start is None:
            twin = game.new_initial_state()
        else:
            data = dict(start)
            if -1 in last_of_round:
                data["set"] = list(start["set"])
                held = mask_of(start["hands"][opponent]) | 1 << start["set"][opponent]
                data["set"][opponent] = choice(-1, held, start["set"][opponent])
                data["hands"] = [list(h) for h in start["hands"]]
                data["hands"][opponent] = cards_of(held & ~(1 << data["set"][opponent]))
            twin = game.state_from_dict(data)
        slot_set = set(slots)
        for i, action in enumerate(self._history):
            if i in slot_set:
                if action < SUN:
                    action = choice(i, twin.hands[opponent], action)
                else:
                    held = twin.hands[opponent] | 1 << twin.cards[opponent]
                    action = CHANGE + choice(i, held, action - CHANGE)
            twin.apply_action(action)
        return twin

    # --- positions ----------------------------------------------------------------------------

    def to_dict(self) -> dict:
        c0, c1 = self.cards
        return {
            "game": "sinomilia",
            "round": self.round,
            "phase": PHASES[self.phase],
            "start_player": self.start,
            "to_move": self.to_move,
            "chips": list(self.chips),
            "table": [self.sun, self.moon],
            "hands": [cards_of(self.hands[0]), cards_of(self.hands[1])],
            "set": [None if c0 < 0 else c0, None if c1 < 0 else c1],
            "discards": [cards_of(self.discards[0]), cards_of(self.discards[1])],
            "changed": list(self.changed),
            "last_action": self.last_action,
            "last_turn": TURNS[self.last_turn],
            "last_round_winner": self.last_round_winner,
            "cap_reached": self.cap_reached,
        }

    def key(self) -> tuple:
        return (
            self.round,
            self.phase,
            self.start,
            self.to_move,
            tuple(self.chips),
            self.sun,
            self.moon,
            tuple(self.hands),
            tuple(self.cards),
            tuple(self.discards),
            tuple(self.changed),
            self.last_action,
            self.last_turn,
            self.last_round_winner,
            self.cap_reached,
        )


_ACTION_STRINGS = (
    tuple(f"set {k}" for k in range(10))
    + ("chip sun", "chip moon")
    + tuple(f"change {k}" for k in range(10))
    + ("pass",)
)
_STRING_ACTIONS = {text: action for action, text in enumerate(_ACTION_STRINGS)}


def masked_string(action: int) -> str:
    """``action`` as the opponent sees it: ``set ?`` and ``change ?`` hide the card."""
    if action < SUN:
        return "set ?"
    if CHANGE <= action < PASS:
        return "change ?"
    return _ACTION_STRINGS[action]


# ----------------------------------------------------------------------------- reading positions


def _parse_position(game: SinomiliaGame, data: Any) -> SinomiliaState:
    """Types and shapes of every key (spec 7.1, first bullet); the rules are checked by ``_validate``."""
    check_keys(data, KEYS, "sinomilia")
    state = SinomiliaState(game)
    state.round = _int(data, "round", minimum=1)
    if data["phase"] not in PHASES:
        raise PositionError(f"sinomilia: field 'phase' must be one of {', '.join(PHASES)}; got {_short(data['phase'])}")
    state.phase = PHASES.index(data["phase"])
    state.start = _player(data, "start_player")
    state.to_move = _player(data, "to_move", nullable=True)
    state.chips = _int_pair(data, "chips")
    state.sun, state.moon = _int_pair(data, "table")
    hands = _pair(data, "hands")
    discards = _pair(data, "discards")
    sets = _pair(data, "set")
    for player in (0, 1):
        state.hands[player] = _card_list(hands[player], f"hands[{player}]")
        state.discards[player] = _card_list(discards[player], f"discards[{player}]")
        card = sets[player]
        if card is not None and (type(card) is not int or not 0 <= card <= 9):
            raise PositionError(f"sinomilia: set[{player}] must be a card 0..9 or null; got {_short(card)}")
        state.cards[player] = -1 if card is None else card
    changed = _pair(data, "changed")
    if any(type(c) is not bool for c in changed):
        raise PositionError(f"sinomilia: field 'changed' must hold two booleans; got {_short(changed)}")
    state.changed = list(changed)
    state.last_action = _player(data, "last_action", nullable=True)
    if data["last_turn"] not in TURNS:
        raise PositionError(
            f"sinomilia: field 'last_turn' must be one of {', '.join(TURNS)}; got {_short(data['last_turn'])}"
        )
    state.last_turn = TURNS.index(data["last_turn"])
    state.last_round_winner = _player(data, "last_round_winner", nullable=True)
    if type(data["cap_reached"]) is not bool:
        raise PositionError(f"sinomilia: field 'cap_reached' must be a boolean; got {_short(data['cap_reached'])}")
    state.cap_reached = data["cap_reached"]
    return state


def _short(value: Any) -> str:
    text = canonical_json(value) if isinstance(value, (list, dict, str, int, float, bool, type(None))) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(data: dict, key: str, minimum: int) -> int:
    value = data[key]
    if type(value) is not int or value < minimum:
        raise PositionError(f"sinomilia: field {key!r} must be an integer >= {minimum}; got {_short(value)}")
    return value


def _player(data: dict, key: str, nullable: bool = False) -> int | None:
    value = data[key]
    if value is None and nullable:
        return None
    if type(value) is not int or value not in (0, 1):
        allowed = "0, 1 or null" if nullable else "0 or 1"
        raise PositionError(f"sinomilia: field {key!r} must be {allowed}; got {_short(value)}")
    return value


def _pair(data: dict, key: str) -> list:
    value = data[key]
    if not isinstance(value, list) or len(value) != 2:
        raise PositionError(
            f"sinomilia: field {key!r} must be a list of two entries (players 0, 1); got {_short(value)}"
        )
    return value


def _int_pair(data: dict, key: str) -> list[int]:
    value = _pair(data, key)
    for i, v in enumerate(value):
        if type(v) is not int:
            raise PositionError(f"sinomilia: {key}[{i}] must be an integer; got {_short(v)}")
        if v < 0:
            raise PositionError(f"sinomilia: {key}[{i}] is negative ({v})")
    return list(value)


def _card_list(value: Any, field: str) -> int:
    if not isinstance(value, list) or any(type(k) is not int or not 0 <= k <= 9 for k in value):
        raise PositionError(f"sinomilia: {field} must be a list of cards 0..9; got {_short(value)}")
    if any(a >= b for a, b in zip(value, value[1:])):
        raise PositionError(f"sinomilia: {field} must be strictly ascending; got {_short(value)}")
    return mask_of(value)


def _validate(s: SinomiliaState, round_cap: int | None) -> None:
    """Every invalid case of spec 7.1, in its order; raises ``PositionError`` naming the problem."""

    def fail(problem: str) -> None:
        raise PositionError(f"sinomilia: {problem}")

    phase = PHASES[s.phase]
    table = s.sun + s.moon
    if sum(s.chips) + table != TOTAL_CHIPS:
        fail(f"chips {s.chips} and table [{s.sun},{s.moon}] hold {sum(s.chips) + table} chips; they must total 30")
    if table >= TABLE_LIMIT:
        fail(f"table holds {table} chips; a round ends when it holds 9 (C1)")
    if table and s.phase != PHASE_PLAY:
        fail(f"table holds {table} chips in phase {phase!r}; it is empty outside the play phase")
    for p in (0, 1):
        hand, discards = s.hands[p], s.discards[p]
        card_bit = 0 if s.cards[p] < 0 else 1 << s.cards[p]
        if hand & discards or hand & card_bit or discards & card_bit or hand | discards | card_bit != ALL_CARDS:
            fail(
                f"hands[{p}], set[{p}] and discards[{p}] must hold each card 0..9 exactly once; "
                f"got hand {cards_of(hand)}, set {None if s.cards[p] < 0 else s.cards[p]}, discards {cards_of(discards)}"
            )
        if discards >> 9 & 1:
            fail(f"discards[{p}] holds the 9, which always returns to its owner's hand")
        limit = s.round if s.phase == PHASE_OVER else s.round - 1
        if discards.bit_count() > limit:
            fail(
                f"discards[{p}] holds {discards.bit_count()} cards; at most {limit} can be discarded by round {s.round}"
            )
        if s.phase != PHASE_OVER and (hand | card_bit).bit_count() < 3:
            fail(f"hands[{p}] plus set[{p}] hold fewer than 3 cards; the game would have ended (hand of 2)")
    other = 1 - s.start
    if s.phase == PHASE_SET:
        if s.cards[other] >= 0:
            fail(f"set[{other}]: the non-start player has a set card in the set phase; the start player sets first")
        expected = s.start if s.cards[s.start] < 0 else other
        if s.to_move != expected:
            fail(f"to_move is {s.to_move} in the set phase; player {expected} sets next")
        if 0 in s.chips:
            fail(f"chips {s.chips}: a pile is 0 in the set phase; the game would have ended")
        if any(s.changed):
            fail("changed: a change card is used in the set phase")
        if s.last_action is not None:
            fail("last_action must be null in the set phase")
        if s.last_turn != TURN_NONE:
            fail("last_turn must be 'none' in the set phase")
    elif s.phase == PHASE_PLAY:
        if s.cards[0] < 0 or s.cards[1] < 0:
            fail("set: both set cards are present in the play phase")
        if s.to_move is None:
            fail("to_move is null in the play phase")
        acted = bool(table) or any(s.changed)
        if acted != (s.last_action is not None):
            fail(
                "last_action is null although an Action was taken"
                if acted
                else "last_action is set although no chip was played and no change made"
            )
        waiting = 1 - s.to_move
        turn = s.last_turn
        if (
            (turn == TURN_SUN and not s.sun)
            or (turn == TURN_MOON and not s.moon)
            or (turn == TURN_CHANGE and not s.changed[waiting])
        ):
            fail(f"last_turn {TURNS[turn]!r} does not match the table or player {waiting}'s change card")
        if turn == TURN_NONE and (s.to_move != s.start or acted):
            fail("last_turn is 'none' although a turn has been taken")
    else:
        if s.to_move is not None:
            fail("to_move must be null when the game is over")
        if s.cards[0] >= 0 or s.cards[1] >= 0:
            fail("set: a set card is present although the game is over")
        if any(s.changed):
            fail("changed: a change card is used although the game is over")
        if s.last_action is not None or s.last_turn != TURN_NONE:
            fail("last_action must be null and last_turn 'none' when the game is over")
        if s.last_round_winner is None:
            fail("last_round_winner is null although the game is over")
        by_rules = 0 in s.chips or 2 in (s.hands[0].bit_count(), s.hands[1].bit_count())
        by_cap = round_cap is not None and s.round >= round_cap
        if not by_rules and not (s.cap_reached and by_cap):
            fail("phase is 'over' but no end condition holds (a pile of 0, a hand of 2, or the round cap)")
        if s.cap_reached and by_rules:
            fail("cap_reached is true although the game ended by chips or hand size")
    if s.cap_reached and s.phase != PHASE_OVER:
        fail(f"cap_reached is true in phase {phase!r}")
    if round_cap is not None and s.round > round_cap:
        fail(f"round {s.round} exceeds round_cap {round_cap}")
    if s.round >= 2:
        if s.last_round_winner is None:
            fail(f"last_round_winner is null in round {s.round}")
        if s.phase != PHASE_OVER and s.last_round_winner != s.start:
            fail("start_player differs from last_round_winner (the round winner starts the next round)")
    if s.phase == PHASE_PLAY:
        if s.last_turn in (TURN_SUN, TURN_MOON, TURN_CHANGE) and s.last_action != 1 - s.to_move:
            fail(f"last_action is {s.last_action} after a {TURNS[s.last_turn]!r} turn by player {1 - s.to_move}")
        if not (table or any(s.changed)) and 0 in s.chips:
            fail(f"chips {s.chips}: a pile is 0 before any Action in the play phase")
