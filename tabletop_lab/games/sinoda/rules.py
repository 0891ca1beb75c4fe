"""Sinoda: d4 pieces on a board of triangles, for 2, 3, 4 or 6 players (``docs/rules/sinoda.md``).

Each player has six pieces showing 1..4. A turn either changes one own piece's value by one
(no wrap-around) or moves it exactly ``value`` steps across triangle edges along a simple path
through empty cells, ending on an empty cell or capturing an opponent's piece there. Captured
pieces keep their value as points. The board is data (``geometry.Board``): cells in canonical
order, adjacency and start cells; ``board="standard"`` picks the radius-3 hexagon for two
players and the radius-5 one for 3, 4 and 6.

An action is an int ``cell * (cells + 2) + slot`` with slot 0 = ``change <cell> -``, 1 =
``change <cell> +`` and ``2 + d`` = ``move <cell> <d>``; ascending ints are the spec's listing
order (own pieces in canonical cell order, ``-`` before ``+`` before moves by destination).
"""

from __future__ import annotations

import copy
import functools
import math
from bisect import bisect_left, insort
from typing import Any, NamedTuple

from ...core import TERMINAL, Game, GameInfo, Option, Result, State, canonical_json, check_keys
from ...errors import ActionSyntaxError, PositionError, RulesError, excerpt
from ...registry import register_game
from .geometry import MAX_VALUE, PIECES_PER_PLAYER, Board, board_data, standard_board

__all__ = ["PLAYER_NAMES", "SinodaGame", "SinodaState", "Turn", "TEAM_LAYOUTS"]

#: Seat colours, clockwise; two-player games are Blue (0) against Red (1), as in the rulebook.
PLAYER_NAMES = ("Blue", "Red", "Green", "Yellow", "Purple", "Orange")

#: Teams by (teams option, players): opposite seats (pairs) or alternate seats (triples).
TEAM_LAYOUTS = {
    ("pairs", 4): ((0, 2), (1, 3)),
    ("pairs", 6): ((0, 3), (1, 4), (2, 5)),
    ("triples", 6): ((0, 2, 4), (1, 3, 5)),
}

_KEYS = ("game", "players", "to_move", "pieces", "captured")
_CHANGE_DOWN, _CHANGE_UP, _FIRST_MOVE = 0, 1, 2
_SYNTAX = "write 'change <cell> +', 'change <cell> -' or 'move <from> <to>' with single spaces, e.g. 'move U1,0 D0,0'"


class Turn(NamedTuple):
    """What the latest turn did, for display: who, the action string, the cells involved
    (one for a change, from and to for a move) and the piece captured as (owner, value)."""

    player: int
    action: str
    cells: tuple[str, ...]
    captured: tuple[int, int] | None


GAME_INFO = GameInfo(
    name="sinoda",
    menu_rank=3,
    title="Sinoda",
    summary="Four-sided dice on a board of triangles: change a piece's value by one or move it exactly "
    "that many steps along edges, capture opponents by landing on them; 2, 3, 4 or 6 players, teams optional.",
    players=(2, 3, 4, 6),
    information="perfect",
    utility="general_sum",
    max_actions=4000,  # random games: mean 270-620 actions, longest of 250 per config 1236
    player_names=PLAYER_NAMES,
    rules_version=1,  # raise it whenever the engine's behaviour changes (tabletop_lab.versions)
)


def _board_option(value: Any) -> bool:
    return value == "standard" or isinstance(value, dict)


@register_game
class SinodaGame(Game):
    """Sinoda under one rules config; ``board`` is the validated ``geometry.Board`` in use."""

    info = GAME_INFO
    harness_games = 10  # random games run to hundreds of actions on the large board
    option_specs = (
        Option("players", 2, "number of players: 2 (small board) or 3, 4, 6 (large board)", choices=(2, 3, 4, 6)),
        Option(
            "teams",
            "none",
            "everyone alone, 'pairs' (opposite seats; 4 or 6 players) or 'triples' (alternate seats; 6 players)",
            choices=("none", "pairs", "triples"),
        ),
        Option(
            "four_player_start",
            "corner",
            "4 players on the standard board: players 0 and 2 start on the corner flowers, or on the side flowers",
            choices=("corner", "side"),
        ),
        Option("first_player", 0, "who takes the first turn: 0 .. players-1", choices=(0, 1, 2, 3, 4, 5)),
        Option(
            "board",
            "standard",
            "the spec's board for the player count, or a board-data object {cells, adjacency, seats}",
            check=_board_option,
            allowed='"standard" or a board-data object {"cells": [...], "adjacency": {...}, "seats": [[...], ...]}',
            example=board_data(2),
        ),
    )

    def _check_options(self) -> None:
        players, teams = self.options["players"], self.options["teams"]
        if teams != "none" and (teams, players) not in TEAM_LAYOUTS:
            needs = "4 or 6 players" if teams == "pairs" else "6 players"
            raise RulesError(f"sinoda: teams={teams!r} needs {needs}, got players={players}")
        if self.options["first_player"] >= players:
            raise RulesError(
                f"sinoda: first_player={self.options['first_player']} is not a seat; "
                f"with players={players} it must be 0..{players - 1}"
            )
        board = self.options["board"]
        if board == "standard":
            self.board = standard_board(players, self.options["four_player_start"])
        else:
            self.board = Board.from_data(board, players)  # checked first: only then is it safe to copy
            self.options["board"] = copy.deepcopy(board)  # the caller's object may change later; the config may not
        team = [self.team_of(p) for p in range(players)]
        #: friendly[p][o]: whether o is p or p's teammate; index -1 (an empty cell) is never friendly.
        self.friendly = tuple(tuple(team[o] == team[p] for o in range(players)) + (False,) for p in range(players))
        self.stride = self.board.size + _FIRST_MOVE
        self.num_actions = self.board.size * self.stride
        self.action_strings: dict[int, str] = {}  # filled as actions are named (a cache)

    @property
    def num_sites(self) -> int:
        return self.board.size

    def state_space_log10(self) -> float:
        """A bound on the positions: each cell empty or holding a piece of one of the players
        showing 1 to 4, ``(1 + 4 * players) ** cells``; each player's captures as a count of 0
        to 6 of each other player's pieces at each value, ``7 ** (players * (players - 1) * 4)``;
        and the player to move. A loose bound (each player has only six pieces), as Ludii's."""
        players, cells = self.options["players"], self.board.size
        return (
            cells * math.log10(1 + MAX_VALUE * players)
            + players * (players - 1) * MAX_VALUE * math.log10(PIECES_PER_PLAYER + 1)
            + math.log10(players)
        )

    @property
    def num_players(self) -> int:
        return self.options["players"]

    @property
    def utility(self) -> str:
        """``"team"`` with teams, ``"zero_sum"`` for two players alone, else ``"general_sum"``."""
        if self.options["teams"] != "none":
            return "team"
        return "zero_sum" if self.num_players == 2 else "general_sum"

    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each team; everyone alone unless the ``teams`` option says otherwise."""
        layout = TEAM_LAYOUTS.get((self.options["teams"], self.num_players))
        return layout or tuple((p,) for p in range(self.num_players))

    @classmethod
    def harness_configs(cls) -> list[dict[str, Any]]:
        """Configs for the conformance harness: every player count, team layout and start.

        Kept to six because random games on the large board are long (about 500 actions): the
        four-player config combines pairs with the side start, and the six-player ones are the two
        team layouts (free-for-all play with several players is the three-player config).
        """
        return [
            {},
            {"first_player": 1},
            {"players": 3, "first_player": 2},
            {"players": 4, "teams": "pairs", "four_player_start": "side", "first_player": 3},
            {"players": 6, "teams": "pairs"},
            {"players": 6, "teams": "triples", "first_player": 5},
        ]

    def __reduce__(self):
        return (_rebuild_game, (self.options,))

    def new_initial_state(self) -> SinodaState:
        size = self.board.size
        owner, value = [-1] * size, [0] * size
        for player, seat in enumerate(self.board.seats):
            for cell in seat:
                owner[cell], value[cell] = player, 1
        return SinodaState(self, owner, value, [[] for _ in range(self.num_players)], self.options["first_player"])

    def state_from_dict(self, data: Any) -> SinodaState:
        """Read a position (spec section 6), pieces and captured entries in any order."""
        check_keys(data, _KEYS, "sinoda")
        n = self.num_players
        players = data["players"]
        if type(players) is not int:
            raise PositionError(f"sinoda: field 'players' must be an integer, got {excerpt(players)}")
        if players != n:
            raise PositionError(f"sinoda: field 'players' is {players} but the rules config has players={n}")
        to_move = data["to_move"]
        if type(to_move) is not int or not 0 <= to_move < n:
            raise PositionError(f"sinoda: field 'to_move' must be a seat 0..{n - 1}, got {excerpt(to_move)}")
        owner, value = self._read_pieces(data["pieces"])
        captured = self._read_captured(data["captured"])
        for o in range(n):
            on_board = owner.count(o)
            taken = sum(1 for cap in captured for victim, _ in cap if victim == o)
            if on_board + taken != PIECES_PER_PLAYER:
                raise PositionError(
                    f"sinoda: player {o} has {on_board} piece(s) on the board and {taken} captured; "
                    f"the two must add up to {PIECES_PER_PLAYER}"
                )
        for p, cap in enumerate(captured):
            if len(cap) > PIECES_PER_PLAYER:
                raise PositionError(f"sinoda: captured[{p}] holds {len(cap)} pieces; nobody captures more than 6")
        state = SinodaState(self, owner, value, captured, to_move)
        state._start = state.to_dict()
        return state

    def _read_pieces(self, pieces: Any) -> tuple[list[int], list[int]]:
        board, n = self.board, self.num_players
        if not isinstance(pieces, list):
            raise PositionError(
                f"sinoda: field 'pieces' must be a list of [cell, player, value], got {excerpt(pieces)}"
            )
        owner, value = [-1] * board.size, [0] * board.size
        for i, entry in enumerate(pieces):
            where = f"sinoda: pieces[{i}]"
            if not isinstance(entry, list) or len(entry) != 3:
                raise PositionError(f"{where} must be [cell, player, value], got {excerpt(entry)}")
            name, player, val = entry
            if not isinstance(name, str):
                raise PositionError(f"{where}: the cell must be a string, got {excerpt(name)}")
            cell = board.index.get(name)
            if cell is None:
                raise PositionError(f"{where}: cell {excerpt(name)} is not on the board")
            if owner[cell] >= 0:
                raise PositionError(f"{where}: two pieces share cell {name}")
            if type(player) is not int or not 0 <= player < n:
                raise PositionError(f"{where}: the player must be an integer 0..{n - 1}, got {excerpt(player)}")
            if type(val) is not int or not 1 <= val <= MAX_VALUE:
                raise PositionError(f"{where}: the value must be an integer 1..4, got {excerpt(val)}")
            owner[cell], value[cell] = player, val
        return owner, value

    def _read_captured(self, captured: Any) -> list[list[tuple[int, int]]]:
        n = self.num_players
        if not isinstance(captured, list) or len(captured) != n:
            raise PositionError(f"sinoda: field 'captured' must be a list of {n} lists (one per player)")
        result = []
        for p, entries in enumerate(captured):
            if not isinstance(entries, list):
                raise PositionError(f"sinoda: captured[{p}] must be a list of [owner, value], got {excerpt(entries)}")
            pieces = []
            for i, entry in enumerate(entries):
                where = f"sinoda: captured[{p}][{i}]"
                if not isinstance(entry, list) or len(entry) != 2:
                    raise PositionError(f"{where} must be [owner, value], got {excerpt(entry)}")
                victim, val = entry
                if type(victim) is not int or not 0 <= victim < n:
                    raise PositionError(f"{where}: the owner must be an integer 0..{n - 1}, got {excerpt(victim)}")
                if type(val) is not int or not 1 <= val <= MAX_VALUE:
                    raise PositionError(f"{where}: the value must be an integer 1..4, got {excerpt(val)}")
                if self.friendly[p][victim]:
                    who = "the capturer itself" if victim == p else f"player {p}'s teammate"
                    raise PositionError(f"{where}: the owner {victim} is {who}; only opponents' pieces are captured")
                pieces.append((victim, val))
            result.append(sorted(pieces))
        return result


def _rebuild_game(options: dict) -> SinodaGame:
    return SinodaGame(**options)


class SinodaState(State):
    """Who stands where with which value, what each player has captured, and who moves.

    ``owner[c]`` is the player on cell ``c`` (-1 if empty) and ``value[c]`` its value (0 if
    empty); ``captured[p]`` is the sorted list of ``(owner, value)`` that ``p`` has taken.
    ``last_move`` (a ``Turn``) describes the latest turn for display; it is not part of the
    position.
    """

    def __init__(self, game: SinodaGame, owner: list[int], value: list[int], captured: list, to_move: int):
        super().__init__(game)
        self.owner = owner
        self.value = value
        self.captured = captured
        self.to_move = to_move
        self._last: tuple | None = None  # (player, action, captured) of the latest turn
        self._seen = (0, "")  # (actions, their strings joined): information_state_string's cache
        self._legal: list[int] | None = None  # legal_actions() of this position once listed (ascending)
        self._json: str | None = None  # to_json() of this position once written
        self._pieces = [[] for _ in range(game.num_players)]  # cells of each player's pieces, ascending
        self._material = [0] * game.num_players  # sum of the values of each player's pieces on the board
        self._occupied = 0  # bit c set when cell c holds a piece
        for cell, player in enumerate(owner):
            if player >= 0:
                self._pieces[player].append(cell)
                self._material[player] += value[cell]
                self._occupied |= 1 << cell
        self._scores = [sum(v for _, v in cap) for cap in captured]
        self._end = self._ending()

    # --- the rules hooks -----------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self._end else self.to_move

    def is_terminal(self) -> bool:
        return self._end is not None

    def scores(self) -> list[int]:
        """Each player's captured points (spec section 2)."""
        return list(self._scores)

    def result(self) -> Result | None:
        """Win by Sinoda, or the standard result with its tie-breaks mapped to teams (3.3, Decision 17)."""
        if self._end is None:
            return None
        scores = self.scores()
        if self._end == "sinoda":
            return Result((self._sinoda_winner(scores),), tuple(scores), "sinoda")
        top = max(scores)
        tied = [p for p, s in enumerate(scores) if s == top]
        most = max(len(self._pieces[p]) for p in tied)
        individual = [p for p in tied if len(self._pieces[p]) == most]
        friendly = self.game.friendly
        winners = tuple(p for p in range(self.game.num_players) if any(friendly[p][w] for w in individual))
        return Result(winners, tuple(scores), "standard")

    def _legal_actions(self) -> list[int]:
        game = self.game
        me = self.to_move
        friendly = game.friendly[me]
        owner, value, occupied = self.owner, self.value, self._occupied
        changes, moves = _action_table(game.board)
        actions = []
        append = actions.append
        for cell in self._pieces[me]:
            v = value[cell]
            actions += changes[cell][v]
            found = -1  # the latest move listed; its destination's other paths need no look
            for dest, mask, action in moves[cell][v]:
                if action != found and not occupied & mask and not friendly[owner[dest]]:
                    append(action)
                    found = action
        self._legal = actions
        return actions[:]

    def _illegal_reason(self, action: int) -> str | None:
        legal = self._legal
        if legal is not None and type(action) is int:  # the usual case: an action just listed
            index = bisect_left(legal, action)
            if index < len(legal) and legal[index] == action:
                return None
        cell, slot = self._decode(action)
        if self._end is not None:
            return f"the game is over ({self._end} end, spec 3.2)"
        names, me = self.game.board.names, self.to_move
        name, holder = names[cell], self.owner[cell]
        if holder < 0:
            return f"{name} is empty; {PLAYER_NAMES[me]} must change or move one of their own pieces (rule 3.1)"
        if holder != me:
            if self.game.friendly[me][holder]:
                return (
                    f"{name} holds {PLAYER_NAMES[holder]}'s piece, a teammate's; "
                    "nobody changes or moves a teammate's piece (Decision 10)"
                )
            return f"{name} holds {PLAYER_NAMES[holder]}'s piece; {PLAYER_NAMES[me]} changes or moves only their own (rule 3.1)"
        v = self.value[cell]
        if slot == _CHANGE_DOWN and v == 1:
            return f"the piece on {name} shows 1; values stay within 1..4 without wrap-around, so a 1 can only go up (rule 3.1)"
        if slot == _CHANGE_UP and v == MAX_VALUE:
            return f"the piece on {name} shows 4; values stay within 1..4 without wrap-around, so a 4 can only go down (rule 3.1)"
        if slot < _FIRST_MOVE:
            return None
        return self._move_problem(cell, slot - _FIRST_MOVE)

    def _move_problem(self, cell: int, dest: int) -> str | None:
        """Why the piece on ``cell`` cannot move to ``dest`` now, or ``None`` if it can."""
        board, me = self.game.board, self.to_move
        name, dname, v = board.names[cell], board.names[dest], self.value[cell]
        target = self.owner[dest]
        if dest == cell:
            return f"a move cannot end where it starts ({name}): a path never revisits a cell, the start included (rule 3.1)"
        if target == me:
            return f"{dname} holds {PLAYER_NAMES[me]}'s own piece; a move ends on an empty cell or an opponent's piece (rule 3.1)"
        if target >= 0 and self.game.friendly[me][target]:
            return f"{dname} holds {PLAYER_NAMES[target]}'s piece, a teammate's; teammates are never captured (Decision 10)"
        masks = board.routes[cell][v].get(dest)
        if masks is None:
            lengths = [k for k in range(1, MAX_VALUE + 1) if dest in board.destinations(cell, k)]
            away = f" (it can be reached in {' or '.join(map(str, lengths))} {_steps(lengths[-1])})" if lengths else ""
            return (
                f"wrong length: {dname} is not exactly {v} {_steps(v)} from {name}{away}; a piece showing {v} moves "
                f"exactly {v} {_steps(v)} across edges without revisiting a cell (rule 3.1)"
            )
        if all(self._occupied & mask for mask in masks):
            return (
                f"every {v}-step path from {name} to {dname} passes through a piece; "
                "no piece may be jumped over, whoever owns it (rule 3.1)"
            )
        return None

    def _apply(self, action: int) -> None:
        cell, slot = divmod(action, self.game.stride)
        me = self.to_move
        owner, value = self.owner, self.value
        captured = None
        if slot < _FIRST_MOVE:
            step = 1 if slot == _CHANGE_UP else -1
            value[cell] += step
            self._material[me] += step
        else:
            dest = slot - _FIRST_MOVE
            victim = owner[dest]
            if victim >= 0:
                captured = (victim, value[dest])
                self._pieces[victim].remove(dest)
                self._material[victim] -= value[dest]
                self._scores[me] += value[dest]
                insort(self.captured[me], captured)
            pieces = self._pieces[me]
            pieces.remove(cell)
            insort(pieces, dest)
            owner[dest], value[dest] = me, value[cell]
            owner[cell], value[cell] = -1, 0
            self._occupied = (self._occupied & ~(1 << cell)) | (1 << dest)
        self._last = (me, action, captured)
        self._legal = self._json = None
        self.to_move = (me + 1) % self.game.num_players
        # Only a capture changes piece counts, and only the mover's capture or change down can make
        # the mover's Sinoda inequality hold (an opponent's capture of p adds to both sides of p's).
        if captured is not None or (slot == _CHANGE_DOWN and self.game.num_players == 2):
            self._end = self._ending()

    def _ending(self) -> str | None:
        """``"standard"``, ``"sinoda"`` or ``None``: the checks of spec 3.2, in their order."""
        counts = [len(p) for p in self._pieces]
        if 0 in counts or max(counts) == 1 or any(len(c) == PIECES_PER_PLAYER for c in self.captured):
            return "standard"
        if len(counts) == 2 and self._sinoda_winner(self._scores) is not None:
            return "sinoda"
        return None

    def _sinoda_winner(self, scores: list[int]) -> int | None:
        """The two-player ``p`` with ``score(p) > score(o) + p's values on the board`` (3.2, 2.)."""
        material = self._material
        if scores[0] > scores[1] + material[0]:
            return 0
        if scores[1] > scores[0] + material[1]:
            return 1
        return None

    @property
    def last_move(self) -> Turn | None:
        """The latest turn (who, what, which cells, what it captured), or ``None`` before any."""
        if self._last is None:
            return None
        player, action, captured = self._last
        cell, slot = divmod(action, self.game.stride)
        names = self.game.board.names
        cells = (names[cell],) if slot < _FIRST_MOVE else (names[cell], names[slot - _FIRST_MOVE])
        return Turn(player, self.action_to_string(action), cells, captured)

    def _copy_into(self, new: SinodaState) -> None:
        new.owner = list(self.owner)
        new.value = list(self.value)
        new.captured = [list(cap) for cap in self.captured]
        new._pieces = [list(p) for p in self._pieces]
        new._material = list(self._material)
        new._scores = list(self._scores)

    # --- action strings ------------------------------------------------------------------

    def _decode(self, action: int) -> tuple[int, int]:
        if type(action) is not int or not 0 <= action < self.game.num_actions:
            raise ActionSyntaxError(
                f"sinoda: action {excerpt(action)} is out of range; actions are ints 0..{self.game.num_actions - 1}"
            )
        return divmod(action, self.game.stride)

    def action_to_string(self, action: int) -> str:
        text = self.game.action_strings.get(action) if type(action) is int else None
        if text is None:
            cell, slot = self._decode(action)
            names = self.game.board.names
            if slot == _CHANGE_DOWN:
                text = f"change {names[cell]} -"
            elif slot == _CHANGE_UP:
                text = f"change {names[cell]} +"
            else:
                text = f"move {names[cell]} {names[slot - _FIRST_MOVE]}"
            self.game.action_strings[action] = text
        return text

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise ActionSyntaxError(f"sinoda: an action string is needed, got {excerpt(text)}; {_SYNTAX}")
        parts = text.split(" ")
        if len(parts) == 3 and parts[0] == "change" and parts[2] in ("+", "-"):
            slot = _CHANGE_UP if parts[2] == "+" else _CHANGE_DOWN
            return self._cell(parts[1], text) * self.game.stride + slot
        if len(parts) == 3 and parts[0] == "move":
            origin, dest = self._cell(parts[1], text), self._cell(parts[2], text)
            return origin * self.game.stride + _FIRST_MOVE + dest
        raise ActionSyntaxError(f"sinoda: {excerpt(text)} is not an action; {_SYNTAX}")

    def _cell(self, token: str, text: str) -> int:
        cell = self.game.board.index.get(token)
        if cell is None:
            raise ActionSyntaxError(
                f"sinoda: {excerpt(token)} in {excerpt(text)} is not a cell of this board (cells look like U2,0 or D-1,-2)"
            )
        return cell

    # --- positions -----------------------------------------------------------------------

    def to_dict(self) -> dict:
        names, owner, value = self.game.board.names, self.owner, self.value
        return {
            "game": "sinoda",
            "players": self.game.num_players,
            "to_move": self.to_move,
            "pieces": [[names[c], owner[c], value[c]] for c in sorted([c for cells in self._pieces for c in cells])],
            "captured": [[list(entry) for entry in cap] for cap in self.captured],
        }

    def information_state_string(self, player: int) -> str:
        """The default's string (the position, then every action's string: all is public), with
        the history's part extended from the last call instead of rebuilt (long games)."""
        self._check_player(player)
        history = self._history
        done, seen = self._seen if self._seen[0] <= len(history) else (0, "")
        if done != len(history):
            new = " ".join(map(self.action_to_string, history[done:]))
            seen = f"{seen} {new}" if done else new
            self._seen = (len(history), seen)
        return f"{self.to_json()} | {seen}"

    def to_json(self) -> str:
        """The canonical JSON, kept until the next action (observers and records ask often)."""
        if self._json is None:
            self._json = canonical_json(self.to_dict())
        return self._json

    def occupied_sites(self) -> int:
        return self._occupied

    def key(self) -> tuple:
        return (self.to_move, tuple(self.owner), tuple(self.value), tuple(tuple(cap) for cap in self.captured))

    # --- questions about the position -------------------------------------------------------

    def material(self, player: int) -> int:
        """The sum of the values of ``player``'s pieces on the board."""
        return self._material[player]

    def pieces_of(self, player: int) -> list[str]:
        """The cells of ``player``'s pieces, in canonical order."""
        names = self.game.board.names
        return [names[c] for c in self._pieces[player]]

    def reachable_cells(self, cell: str) -> list[str]:
        """Where the piece on ``cell`` could move now, whoever's turn it is (canonical order)."""
        board = self.game.board
        index = board.index.get(cell)
        if index is None or self.owner[index] < 0:
            raise ValueError(f"sinoda: {cell!r} holds no piece")
        return [board.names[d] for d in self._destinations(index)]

    def attacked_cells(self, player: int) -> list[str]:
        """Every cell some piece of ``player`` could move to now (empty, or an opponent's piece
        it would capture), as if it were ``player``'s turn; canonical order."""
        self._check_player(player)
        names = self.game.board.names
        return [names[c] for c in sorted(self._attacks(player))]

    def threatened(self, player: int) -> list[str]:
        """Cells of ``player``'s pieces that some opponent could capture on their next turn."""
        self._check_player(player)
        friendly = self.game.friendly[player]
        attacked = set()
        for other in range(self.game.num_players):
            if not friendly[other]:
                attacked |= self._attacks(other)
        names = self.game.board.names
        return [names[c] for c in self._pieces[player] if c in attacked]

    def sinoda_arithmetic(self) -> str | None:
        """The inequality of a Win by Sinoda in words, or ``None`` when the game was not won so."""
        if self._end != "sinoda":
            return None
        scores = self.scores()
        p = self._sinoda_winner(scores)
        values = [self.value[c] for c in self._pieces[p]]
        return (
            f"{PLAYER_NAMES[p]} wins by Sinoda: {scores[p]} > {scores[1 - p]} + ({'+'.join(map(str, values))}) "
            f"= {scores[1 - p] + sum(values)}; {PLAYER_NAMES[1 - p]} cannot catch up even by capturing "
            f"all of {PLAYER_NAMES[p]}'s pieces"
        )

    def evaluate(self) -> list[float]:
        """Material, captured points and threats, per team, squashed into (-1, 1).

        A player's strength is their score plus a quarter point per piece on the board (the
        tie-break), plus half the best capture they threaten, minus half their most valuable
        piece under threat. A team is as strong as its strongest member (one individual winner
        is enough, Decision 17); each player gets ``tanh`` of their team's lead over the best
        other team, divided by 4. Terminal states give ``returns()``.
        """
        if self._end is not None:
            return self.returns()
        game = self.game
        n, value, owner = game.num_players, self.value, self.owner
        attacks = [self._attacks(p) for p in range(n)]
        best_gain = [0] * n
        worst_loss = [0] * n
        for p in range(n):
            for cell in attacks[p]:
                victim = owner[cell]
                if victim >= 0:
                    best_gain[p] = max(best_gain[p], value[cell])
                    worst_loss[victim] = max(worst_loss[victim], value[cell])
        scores = self.scores()
        strength = [
            scores[p] + 0.25 * len(self._pieces[p]) + 0.5 * best_gain[p] - 0.5 * worst_loss[p] for p in range(n)
        ]
        teams = game.teams()
        team_strength = [max(strength[p] for p in team) for team in teams]
        values = [0.0] * n
        for t, team in enumerate(teams):
            rival = max(s for u, s in enumerate(team_strength) if u != t)
            for p in team:
                values[p] = math.tanh((team_strength[t] - rival) / 4)
        return values

    def _destinations(self, cell: int) -> list[int]:
        """Legal destinations of the piece on ``cell`` for its owner."""
        friendly = self.game.friendly[self.owner[cell]]
        owner, occupied = self.owner, self._occupied
        return [
            dest
            for dest, masks in self.game.board.routes[cell][self.value[cell]].items()
            if not friendly[owner[dest]] and any(not occupied & m for m in masks)
        ]

    def _attacks(self, player: int) -> set[int]:
        found: set[int] = set()
        for cell in self._pieces[player]:
            found.update(self._destinations(cell))
        return found


@functools.lru_cache(maxsize=16)
def _action_table(board: Board) -> tuple[tuple, tuple]:
    """Per cell and value: the change actions, and each path as (destination, mask, move action).

    The move generator's inner loop then does no arithmetic (actions as in the module docstring).
    """
    stride = board.size + _FIRST_MOVE
    changes = tuple(
        (None,) + tuple(tuple(c * stride + s for s, ok in ((0, v > 1), (1, v < MAX_VALUE)) if ok) for v in range(1, 5))
        for c in range(board.size)
    )
    moves = tuple(
        (None,) + tuple(tuple((d, m, c * stride + _FIRST_MOVE + d) for d, m in board.paths[c][v]) for v in range(1, 5))
        for c in range(board.size)
    )
    return changes, moves


def _steps(count: int) -> str:
    return "step" if count == 1 else "steps"
