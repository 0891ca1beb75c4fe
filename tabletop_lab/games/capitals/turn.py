"""Playing a Capitals turn: the legal actions of a state and what each action does.

``CapitalsTurn`` holds the rules of a turn (``docs/rules/capitals.md`` sections 2-5, 9a) as
methods that ``CapitalsState`` inherits: generating the legal actions (``_generate``), playing the
main actions (step, jump chain, dismantle, pass-turn), and the resolution that follows (captures,
eliminations, released prisoners, the Hunger sacrifice, the win check and the next turn). A jump
chain in progress is a ``Chain``. ``rules.py`` keeps the state's fields, its API and its strings.
"""

from __future__ import annotations

from ...core import Game
from .geometry import (
    BOTTOM,
    CAPITAL_OWNER,
    CONTROLLER,
    DISMANTLE,
    HOP_ID,
    IS_RAM,
    JUMP,
    JUMPED,
    JUMPS_FROM,
    OWNER,
    PASS_TURN,
    PASS_TURN_ID,
    RELEASE_ID,
    RELEASE_ORDER,
    SACRIFICE_ID,
    SKIP_ID,
    STEP,
    STEPS_FROM,
    STOP_ID,
    TEAM_OF,
    TEAMS,
    TERRITORIES,
    TERRITORY_OWNER,
    TOP,
    TRANSFER_ID,
    unit_code,
)

#: Kinds of jump in a chain (3.2).
FRIENDLY, HOSTILE = 1, 2
#: Per player, by unit code: does the player control the unit?
_CONTROLLED_BY = tuple(tuple(c != 0 and CONTROLLER[c] == a for c in range(81)) for a in range(4))
#: Per actor, by unit code: may a single piece step there (empty, or an allied single: 3.1)?
_STEPPABLE = tuple(tuple(c == 0 or (CONTROLLER[c] == a ^ 2 and not IS_RAM[c]) for c in range(81)) for a in range(4))
#: Per actor, by unit code: may a chain's first jump go over it (any unit but an enemy Ram: 3.2)?
_FIRST_JUMPABLE = tuple(tuple(c != 0 and (TEAM_OF[c] == a & 1 or not IS_RAM[c]) for c in range(81)) for a in range(4))


def in_hunger(cycle: int, slot: int, hunger_first: str) -> bool:
    """Is ``slot`` of ``cycle`` inside a Hunger Epoch (section 2)? An Epoch that White opens is
    cycle 4k's four slots, seats 0, 1, 2, 3. With ``hunger_first = "alternate"`` Black opens
    every other Epoch, those of cycles 8, 16, 24, ...: such an Epoch starts a slot later, at slot
    1 of cycle 8k, and ends with slot 0 of cycle 8k + 1, so its seats pay in the order 1, 2, 3, 0.

    >>> in_hunger(4, 0, "alternate"), in_hunger(8, 0, "alternate"), in_hunger(9, 0, "alternate")
    (True, False, True)
    """
    if hunger_first == "white" or cycle % 8 > 1:
        return cycle % 4 == 0
    return cycle % 8 == 0 and slot > 0 or cycle % 8 == 1 and cycle > 1 and slot == 0


def _epoch_tail(cycle: int, hunger_first: str) -> bool:
    """Is slot 0 of ``cycle`` the last slot of an Epoch that Black opened in the cycle before?
    The Altar marks of that Epoch then last until slot 0 is over (5.2)."""
    return in_hunger(cycle, 0, hunger_first) and not in_hunger(cycle, 1, hunger_first)


def _epoch_edge(cycle: int, hunger_first: str) -> bool:
    """Does slot 1 of ``cycle`` open or close an Epoch that Black opened? The Altar marks are
    wiped there too (5.2): a mark set before such an Epoch must not excuse a sacrifice in it,
    and the Epoch's own marks end with it."""
    return in_hunger(cycle, 0, hunger_first) != in_hunger(cycle, 1, hunger_first)


class Chain:
    """A jump chain in progress: where it started and stands, what it jumped and captured."""

    __slots__ = ("start", "at", "kind", "jumped", "landings", "captures")

    def __init__(self, start: int, at: int, kind: int):
        self.start = start
        self.at = at
        self.kind = kind  # FRIENDLY or HOSTILE, fixed by the first jump
        self.jumped: list[int] = []  # squares of the units jumped, in order
        self.landings: list[int] = []
        self.captures: list[tuple[int, bool, int]] = []  # (square, Ram attack?, owner captured)

    def copy(self) -> Chain:
        new = Chain(self.start, self.at, self.kind)
        new.jumped = list(self.jumped)
        new.landings = list(self.landings)
        new.captures = list(self.captures)
        return new


class CapitalsTurn:
    """The turn rules of ``CapitalsState`` (which sets every field these methods read)."""

    game: Game
    board: list[int]
    chain: Chain | None

    # --- legal actions ----------------------------------------------------------------------------

    def _generate(self) -> list[int]:
        if self.releases:
            territory = TERRITORIES[self.releases[0][1]]
            return sorted(RELEASE_ID[s] for s in territory if not self.board[s])
        if self.pending_sacrifice:
            return sorted(SACRIFICE_ID[s] for s in self._sacrificeable())
        if self.chain is not None:
            actions = [HOP_ID[land] for land in self._hops(self.chain, self.board)]
            if self._can_stop(self.chain):
                actions.append(STOP_ID)
            return sorted(actions)
        actions = self._main_actions()
        if not actions:
            actions.append(SKIP_ID)
        if self.cages[self.actor]:
            options = self.game.options
            can_transfer = self.transfers < options["transfers_per_turn"]
            can_pass = not self.extra_turn or options["pass_turn_chain"]
            if (can_transfer or can_pass) and self.has_synergy():
                if can_transfer:
                    actions.append(TRANSFER_ID)
                if can_pass:
                    actions.append(PASS_TURN_ID)
        actions.sort()
        return actions

    def _main_actions(self) -> list[int]:
        """Steps, first jumps and dismantles of the actor's units (3.1-3.4), unsorted."""
        board, actor = self.board, self.actor
        steppable, jumpable = _STEPPABLE[actor], _FIRST_JUMPABLE[actor]
        ram_jumps = self.game.options["ram_jump"] == "single"
        actions: list[int] = []
        own = _CONTROLLED_BY[actor]
        for square in [s for s, code in enumerate(board) if own[code]]:
            if IS_RAM[board[square]]:
                for n, step, dismantle in STEPS_FROM[square]:
                    if not board[n]:
                        actions += (step, dismantle)
                if ram_jumps:
                    actions += [jump for over, land, jump in JUMPS_FROM[square] if board[over] and not board[land]]
            else:
                actions += [step for n, step, _ in STEPS_FROM[square] if steppable[board[n]]]
                actions += [
                    jump for over, land, jump in JUMPS_FROM[square] if jumpable[board[over]] and not board[land]
                ]
        return actions

    def _hops(self, chain: Chain, board: list[int], check_dead_ends: bool = True) -> list[int]:
        """Landing squares of the legal next jumps of ``chain`` (3.2), with no dead ends (9a)."""
        team = self.actor & 1
        friendly_only = self.game.options["ram_attack_after"] == "friendly"
        landings = []
        for over, land, _ in JUMPS_FROM[chain.at]:
            other = board[over]
            if not other or board[land] or over in chain.jumped:
                continue
            if TEAM_OF[other] == team:
                if chain.kind != FRIENDLY:
                    continue
            elif IS_RAM[other]:
                if friendly_only and chain.kind != FRIENDLY:
                    continue
            elif chain.kind != HOSTILE:
                continue
            if land == chain.start and check_dead_ends and not self._end_on_start:
                if (IS_RAM[other] and TEAM_OF[other] != team) or not self._continues_from_start(chain, board, over):
                    continue  # the chain would be stuck on its starting square
            landings.append(land)
        return landings

    def _continues_from_start(self, chain: Chain, board: list[int], over: int) -> bool:
        """After jumping ``over`` back onto the start square, is there a way on (9a, no dead ends)?"""
        trial_board = list(board)
        trial_board[chain.start], trial_board[chain.at] = trial_board[chain.at], 0
        if self._immediate and chain.kind == HOSTILE and TEAM_OF[board[over]] != self.actor & 1:
            trial_board[over] = 0
        trial = chain.copy()
        trial.jumped.append(over)
        trial.at = chain.start
        return bool(self._hops(trial, trial_board, check_dead_ends=False))

    def _can_stop(self, chain: Chain) -> bool:
        return chain.at != chain.start or self._end_on_start

    def _sacrificeable(self) -> list[int]:
        """Squares of the actor's single pieces (and Rams, with ``sacrifice_from_ram``) (5.2)."""
        board, actor = self.board, self.actor
        rams = self.game.options["sacrifice_from_ram"]
        return [s for s in range(64) if board[s] and CONTROLLER[board[s]] == actor and (rams or not IS_RAM[board[s]])]

    # --- main actions -------------------------------------------------------------------------------

    def _step(self, origin: int, target: int) -> None:
        board = self.board
        code, other = board[origin], board[target]
        board[origin] = 0
        if other:  # onto an allied single: a Ram, controlled by the bottom piece's controller (3.1)
            code = unit_code(OWNER[other], CONTROLLER[other], OWNER[code])
        board[target] = code
        self._last = (self.actor, STEP, (origin, target))
        if CAPITAL_OWNER[target] < 0 and not self.is_hunger_cycle:  # the common case: nothing to resolve
            self._advance(False)
        else:
            self._resolve([], self._entered([target], CONTROLLER[code]), passed=False)

    def _dismantle(self, ram: int, target: int) -> None:
        board = self.board
        code = board[ram]
        top = TOP[code]
        if self.game.options["dismantle_top"] == "keep":
            controller = CONTROLLER[code]
        else:
            controller = top if not self.eliminated[top] else top ^ 2
        board[ram] = BOTTOM[code]
        board[target] = unit_code(top, controller)
        self._last = (self.actor, DISMANTLE, (ram, target))
        self._resolve([], self._entered([target], controller), passed=False)

    def _jump(self, origin: int, landing: int) -> None:
        board = self.board
        code = board[origin]
        over = JUMPED[64 * origin + landing]
        other = board[over]
        friendly = TEAM_OF[other] == self.actor & 1
        if IS_RAM[code]:  # a Ram's single jump (3.3)
            captured = []
            if not friendly:
                captured = [TOP[other], OWNER[other]] if IS_RAM[other] else [OWNER[other]]
                board[over] = 0
            board[origin], board[landing] = 0, code
            self._last = (self.actor, JUMP, (origin, landing))
            self._resolve(captured, self._entered([landing], self.actor), passed=False)
            return
        self.chain = Chain(origin, origin, FRIENDLY if friendly else HOSTILE)
        self._leap(self.chain, over, landing)

    def _hop(self, landing: int) -> None:
        chain = self.chain
        self._leap(chain, JUMPED[64 * chain.at + landing], landing)

    def _leap(self, chain: Chain, over: int, landing: int) -> None:
        """Move the chain's piece over ``over`` onto ``landing``; end the chain if it cannot go on."""
        board = self.board
        other = board[over]
        board[landing], board[chain.at] = board[chain.at], 0
        chain.at = landing
        chain.landings.append(landing)
        chain.jumped.append(over)
        if TEAM_OF[other] != self.actor & 1:
            ram_attack = IS_RAM[other]
            chain.captures.append((over, ram_attack, TOP[other] if ram_attack else OWNER[other]))
            if self._immediate:
                board[over] = BOTTOM[other] if ram_attack else 0
            if ram_attack:  # a Ram attack ends the chain (3.2, rule 2)
                self._end_chain()
                return
        if not self._hold_chain and not self._hops(chain, board):
            self._end_chain()

    def _end_chain(self) -> None:
        chain, board = self.chain, self.board
        self.chain = None
        if not self._immediate:  # captured pieces leave together at the end (3.2, rule 4)
            for square, ram_attack, _ in chain.captures:
                board[square] = BOTTOM[board[square]] if ram_attack else 0
        captured = [owner for _, _, owner in chain.captures]
        self._last = (self.actor, JUMP, (chain.start, *chain.landings))
        if self.game.options["capital_entry"] == "final_square":
            entered = self._entered([chain.at], self.actor)
        else:
            entered = self._entered(chain.landings, self.actor)
        self._resolve(captured, entered, passed=False)

    def _pass_turn(self) -> None:
        piece = self.cages[self.actor].pop(0)
        if self.game.options["pass_turn_cost"] == "altar":
            self.altars[self.actor].append(piece)
            self.altar_filled[self.actor] = True
        else:
            self.removed[piece] += 1
        self._last = (self.actor, PASS_TURN, ())
        self._resolve([], [], passed=True)

    # --- resolution (section 2, step 3) -----------------------------------------------------------

    def _entered(self, squares: list[int], controller: int) -> list[int]:
        """Players whose Capital a unit of ``controller`` arrived on, in order (5.1)."""
        entered = []
        team = controller & 1
        for square in squares:
            player = CAPITAL_OWNER[square]
            if player >= 0 and player & 1 != team and not self.eliminated[player] and player not in entered:
                entered.append(player)
        return entered

    def _resolve(self, captured: list[int], entered: list[int], passed: bool) -> None:
        actor = self.actor
        if captured:
            if self.is_hunger_cycle:
                self.altars[actor].extend(captured)
                self.altar_filled[actor] = True
            else:
                self.cages[actor].extend(captured)
        attacking = bool(captured)
        queue: list[tuple[int, int]] = []
        if entered:
            for player in entered:
                self.eliminated[player] = True
            for player in entered:
                self._eliminate(player)
                queue.extend((owner, player) for owner in self.cages[player])
                self.cages[player] = []
            attacking = attacking or self.game.options["elimination_is_attack"]
        if (captured or entered) and self._check_end():
            for owner, _ in queue:
                self.removed[owner] += 1
            return
        if queue:
            self.releases = queue
            if self.game.options["prisoner_placement"] == "fixed":
                while self.releases:
                    owner, territory = self.releases[0]
                    free = [s for s in RELEASE_ORDER[territory] if not self.board[s]]
                    if free:
                        self._place(free[0])
                    else:
                        self.removed[owner] += 1
                        self.releases.pop(0)
            else:
                self._drop_unplaceable()
                if self.releases:
                    return
        self._after_releases(attacking, passed)

    def _eliminate(self, player: int) -> None:
        """Clear ``player``'s Territory of their units; hand the rest to the ally (5.1, steps 1-2)."""
        board, ally = self.board, player ^ 2
        for square in range(64):
            code = board[square]
            if code and CONTROLLER[code] == player:
                if TERRITORY_OWNER[square] == player:
                    self.removed[OWNER[code]] += 1
                    if IS_RAM[code]:
                        self.removed[TOP[code]] += 1
                    board[square] = 0
                elif not self.eliminated[ally]:
                    board[square] = unit_code(OWNER[code], ally, TOP[code])

    def _drop_unplaceable(self) -> None:
        """Queued prisoners whose Territory is full leave the game (5.1, step 3)."""
        board = self.board
        while self.releases:
            owner, territory = self.releases[0]
            if any(not board[s] for s in TERRITORIES[territory]):
                return
            self.removed[owner] += 1
            self.releases.pop(0)

    def _place(self, square: int) -> None:
        owner, _ = self.releases.pop(0)
        controller = owner if not self.eliminated[owner] else owner ^ 2
        self.board[square] = unit_code(owner, controller)

    def _release(self, square: int) -> None:
        self._place(square)
        self._drop_unplaceable()
        if not self.releases:
            self._after_releases(self.game.options["elimination_is_attack"], passed=False)

    def _after_releases(self, attacking: bool, passed: bool) -> None:
        """The Hunger sacrifice (5.2), the second win check, then the next turn (section 2, step 4)."""
        actor = self.actor
        if self.is_hunger_cycle and not attacking and not self.altar_filled[actor]:
            cage = self.cages[actor]
            if cage:
                self.altars[actor].append(cage.pop(0))
                self.altar_filled[actor] = True
            elif self._sacrificeable():
                self.pending_sacrifice = True
                self.pass_pending = passed
                return
        self._advance(passed)  # nothing left the board since the win check (5.3)

    def _sacrifice(self, square: int) -> None:
        code = self.board[square]
        if IS_RAM[code]:
            self.altars[self.actor].append(TOP[code])
            self.board[square] = BOTTOM[code]
        else:
            self.altars[self.actor].append(OWNER[code])
            self.board[square] = 0
        self.altar_filled[self.actor] = True
        self.pending_sacrifice = False
        passed, self.pass_pending = self.pass_pending, False
        if self._last is not None:
            self._last = (*self._last[:3], square)
        if not self._check_end():
            self._advance(passed)

    def _advance(self, passed: bool) -> None:
        """The next turn: the ally's extra turn after a pass-turn, else the next slot (section 2)."""
        self.transfers = 0
        if passed:
            self.actor ^= 2
            self.extra_turn = True
            return
        self.extra_turn = False
        skip = self.game.options["eliminated_slot"] == "skip"
        first = self.game.options["hunger_first"]
        while True:
            self.slot += 1
            if self.slot == 4:
                self.slot = 0
                self.cycle += 1
                capped = self._cap is not None and self.cycle > self._cap
                if capped or not _epoch_tail(self.cycle, first):  # an Epoch's marks last to its end (5.2)
                    self.altar_filled = [False] * 4
                if capped:
                    self.actor = self._slot_actor(0)
                    self._outcome = ((0, 1, 2, 3), "cap", True)
                    return
            elif self.slot == 1 and _epoch_edge(self.cycle, first):
                self.altar_filled = [False] * 4
            if not self.eliminated[self.slot]:
                self.actor = self.slot
                return
            if not skip:
                self.actor = self.slot ^ 2
                return

    def _slot_actor(self, slot: int) -> int:
        """Who plays ``slot`` without an extra turn: the seat, or its ally under ``"ally"``."""
        if self.eliminated[slot] and self.game.options["eliminated_slot"] == "ally":
            return slot ^ 2
        return slot

    def _check_end(self) -> bool:
        """Set the outcome if a team has won (5.3); True when the game is over."""
        self._outcome = self._winning_outcome()
        return self._outcome is not None

    def _winning_outcome(self) -> tuple[tuple[int, ...], str, bool] | None:
        present = [False, False]
        for code in self.board:
            if code:
                present[TEAM_OF[code]] = True
        eliminated = self.eliminated
        capitals = [eliminated[1] and eliminated[3], eliminated[0] and eliminated[2]]
        wins = [capitals[0] or not present[1], capitals[1] or not present[0]]
        if not (wins[0] or wins[1]):
            return None
        team = self.actor & 1 if wins[0] and wins[1] else (0 if wins[0] else 1)
        return TEAMS[team], "capitals" if capitals[team] else "no_pieces", False

    def _refresh_outcome(self) -> None:
        """The outcome of a loaded position: a win, the cap, or nothing."""
        self._outcome = self._winning_outcome()
        if self._outcome is None and self._cap is not None and self.cycle > self._cap:
            self._outcome = ((0, 1, 2, 3), "cap", True)
