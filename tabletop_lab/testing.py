"""The conformance harness: seeded random playouts that check the game API at every step.

Every registered game, under every option set, must pass ``check_game``. New games get these
checks for free (in the spirit of OpenSpiel's ``random_sim_test`` and PettingZoo's
``api_test``)::

    >>> from tabletop_lab import load_game
    >>> report = check_game(load_game("cross_endodoi"), n_games=2, seed=1)
    >>> report["games"], report["states"] > 10
    (2, True)

A failure raises ``AssertionError`` naming the game, options, seed, step and the check.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
from collections.abc import Iterable, Iterator
from typing import Any

from .core import TERMINAL, Game, State, canonical_json
from .errors import ActionError, ActionSyntaxError, EnumerationLimitError, PositionError
from .kernels import CUT, FINISHED, REPLAY, RULE_CAP
from .records import GameRecord
from .registry import load_game

__all__ = ["check_game", "check_kernel_game", "check_state", "check_tensors", "option_variants", "playthrough"]

_BAD_MOVE_STRINGS = ("", " ", "1\n", "nonsense", "99999", "-1", "0 0", "\n", "pass pass pass")


def option_variants(name: str) -> list[dict[str, Any]]:
    """The option sets the harness plays for game ``name`` (its ``harness_configs()``)."""
    return load_game(name).harness_configs()


def check_game(
    game: Game,
    *,
    n_games: int = 20,
    seed: int = 0,
    positions: Iterable[str] = (),
    max_actions: int | None = None,
) -> dict[str, int]:
    """Play ``n_games`` seeded random games from the start and each of ``positions``.

    Checks every state with ``check_state``, then the result, the record replay and the
    same-seed reproducibility of the whole trajectory. Returns counts of what was checked.
    """
    cap = max_actions or game.info.max_actions
    starts = [game.new_initial_state()] + [game.load_position(p) for p in positions]
    report = {"games": 0, "states": 0, "moves_compared": 0, "moves_too_many": 0, "hidden_varied": 0}
    for index, start in enumerate(itertools.islice(itertools.cycle(starts), n_games)):
        game_seed = seed * 100_003 + index
        trajectory = list(_playout(start, game_seed, cap, report))
        again = [(_trace(s), a) for s, a in _random_trajectory(start, game_seed, cap)]
        _expect(trajectory == again, game, game_seed, len(again), "the same seed replays the same trajectory")
        report["games"] += 1
    if not game.info.perfect_information:
        _expect(
            report["hidden_varied"] > 0,
            game,
            seed,
            0,
            "resample() varies what is hidden (no resampled state ever differed from the true one)",
        )
    return report


def check_state(state: State, rng: random.Random, where: str = "") -> int:
    """Every per-state invariant of the API; raises ``AssertionError`` naming the failed check.

    Returns how many of the players' resampled states differed from this one (hidden data varied).
    """

    def expect(condition: bool, check: str) -> None:
        if not condition:
            raise AssertionError(f"{state.game!r} {where}: {check}; state {_describe(state)}")

    game = state.game
    n = game.num_players
    snapshot = _snapshot(state)
    player = state.current_player()
    terminal = state.is_terminal()
    actions = state.legal_actions()

    # who moves and what they may do
    expect(terminal == (player == TERMINAL), "current_player() is TERMINAL exactly at terminal states")
    expect(terminal or 0 <= player < n, f"current_player() {player} is a seat")
    expect(terminal == (not actions), "legal_actions() is empty exactly at terminal states")
    expect(len(set(actions)) == len(actions), "legal_actions() lists each action once")
    expect(all(type(a) is int for a in actions), "actions are ints")
    strings = [state.action_to_string(a) for a in actions]
    expect([state.string_to_action(s) for s in strings] == actions, "action strings round-trip")
    if not game.info.multi_action_moves:
        expect(state.legal_moves() == strings, "legal_moves() agree with legal_actions() when a move is one action")
    expect(state.mid_turn() == bool(state.move_in_progress()), "move_in_progress() is non-empty exactly mid-turn")

    # results
    result = state.result()
    expect((result is not None) == terminal, "result() is given exactly at terminal states")
    returns = state.returns()
    expect(len(returns) == n, "returns() has one value per player")
    if result is None:
        expect(returns == [0.0] * n, "returns() are 0 before the end")
    else:
        expect(
            list(result.winners) == sorted(set(result.winners)) and result.winners, "winners are sorted and non-empty"
        )
        expect(returns == result.returns(), "returns() agree with result()")
        expect(list(state.scores()) == list(result.scores), "scores() are the result's scores at the end")
    values = state.evaluate()
    expect(len(values) == n and all(-1.0 <= v <= 1.0 for v in values), "evaluate() gives a value in [-1, 1] per player")

    # positions round-trip (between turns only)
    if state.mid_turn():
        try:
            state.to_dict()
        except PositionError:
            pass
        else:
            expect(False, "to_dict() refuses a turn in progress")
    else:
        data = state.to_dict()
        expect(next(iter(data)) == "game" and data["game"] == game.name, "the position JSON starts with its game")
        text = state.to_json()
        expect(text == json.dumps(data, separators=(",", ":")), "to_json() is the canonical serialisation")
        loaded = game.state_from_json(text)
        expect(loaded == state and loaded.to_json() == text, "the JSON position round-trips")
        expect(
            game.state_from_dict(json.loads(json.dumps(data, indent=2))) == state, "the parser accepts any whitespace"
        )
        if game.info.has_notation:
            notation = state.notation()
            again = game.state_from_notation(notation)
            expect(again == state and again.notation() == notation, "the text notation round-trips")
    expect(pickle.loads(pickle.dumps(state)) == state, "states pickle")

    # observations
    snapshot_dict = state.snapshot()
    expect(next(iter(snapshot_dict)) == "game", "snapshot() starts with its game")
    json.dumps(snapshot_dict)
    varied = 0
    for p in range(n):
        observation = state.observation(p)
        json.dumps(observation)
        if game.info.perfect_information:
            expect(observation == snapshot_dict, "a perfect-information observation is the whole snapshot")
        twin = state.resample(p, rng)
        varied += twin.snapshot() != snapshot_dict
        expect(twin.observation(p) == observation, f"player {p}'s observation ignores others' hidden data")
        expect(
            twin.information_state_string(p) == state.information_state_string(p),
            f"player {p}'s information state ignores others' hidden data",
        )

    # bad input changes nothing
    for bad in _bad_actions(state, actions):
        _expect_error(state, state.apply_action, bad, ActionError, snapshot, expect)
    for bad in _BAD_MOVE_STRINGS:
        _expect_error(state, state.apply_move, bad, ActionError, snapshot, expect)
    _expect_error(state, state.apply_action, "0", ActionSyntaxError, snapshot, expect)

    # child() and clone() are independent
    if actions:
        action = rng.choice(actions)
        child = state.child(action)
        expect(_snapshot(state) == snapshot, "child() leaves the parent unchanged")
        twin = state.clone()
        twin.apply_action(action)
        expect(_snapshot(state) == snapshot, "a clone's moves leave the original unchanged")
        expect(_snapshot(twin) == _snapshot(child), "a state and its clone given the same action stay equal")
    expect(_snapshot(state) == snapshot, "checks left the state unchanged")
    return varied


def check_tensors(game: Game, *, n_games: int = 3, seed: int = 0, max_actions: int | None = None) -> int:
    """Play ``n_games`` seeded random games checking the OpenSpiel-placed tensors at every state.

    The mask has ``num_distinct_actions()`` entries, 1 exactly at the legal actions; each seat's
    observation tensor has the declared shape, floats in [0, 1] only (ready for a Box(0, 1) space), and equals the tensor of every
    state that seat cannot tell from this one (``resample``): a seat's tensor never depends on
    another seat's hidden data. With perfect information every seat sees the same encoding (after
    the seat one-hot). Returns the number of states checked.

    >>> from tabletop_lab import load_game
    >>> check_tensors(load_game("cross_endodoi"), n_games=1) > 10
    True
    """
    size = game.num_distinct_actions()
    (length,) = game.observation_tensor_shape()
    n = game.num_players
    cap = max_actions or game.info.max_actions
    states = 0
    seen: set[tuple[float, ...]] = set()
    for index in range(n_games):
        rng = random.Random(seed * 100_003 + index ^ 0x7E5)
        for step, (state, _) in enumerate(_random_trajectory(game.new_initial_state(), seed * 100_003 + index, cap)):
            where = f"seed {seed} game {index} step {step}"
            mask = state.legal_actions_mask()
            _expect(len(mask) == size, game, seed, step, f"{where}: the mask has num_distinct_actions() entries")
            legal = [a for a, bit in enumerate(mask) if bit == 1]
            _expect(
                legal == sorted(state.legal_actions()), game, seed, step, f"{where}: the mask marks the legal actions"
            )
            _expect(set(mask) <= {0, 1}, game, seed, step, f"{where}: the mask holds 0 and 1 only")
            tensors = []
            for p in range(n):
                tensor = state.observation_tensor(p)
                _expect(len(tensor) == length, game, seed, step, f"{where}: player {p}'s tensor has the declared shape")
                _expect(
                    all(type(x) is float and 0.0 <= x <= 1.0 for x in tensor),
                    game,
                    seed,
                    step,
                    f"{where}: floats in [0, 1]",
                )
                _expect(tensor[:n] == [float(q == p) for q in range(n)], game, seed, step, f"{where}: seat one-hot")
                twin = state.resample(p, rng)
                _expect(
                    twin.observation_tensor(p) == tensor,
                    game,
                    seed,
                    step,
                    f"{where}: player {p}'s tensor ignores others' hidden data",
                )
                tensors.append(tensor[n:])
            if game.info.perfect_information:
                _expect(all(t == tensors[0] for t in tensors), game, seed, step, f"{where}: public data, one encoding")
            seen.add(tuple(tensors[0]))
            states += 1
    _expect(len(seen) > 1, game, seed, 0, "the tensor changes as the game goes on")
    return states


def check_kernel_game(kernel: Any, state: State, streams: Any, max_actions: int) -> int:
    """The kernel oracle: a compiled kernel's random game from ``state`` (``streams``: one
    uint64 stream state per seat), checked action by action in the engine. Every action the
    kernel takes must be legal there, with as many legal actions as the kernel counted, up to
    the end the kernel reports: the same outcome, final position, scores and winners.

    Unlike the differential tests of random games, this needs no random play to reach a rule:
    start it from positions where the rule applies. Returns the number of actions checked.
    """
    recorded = kernel.recorded_game(state, streams, max_actions)
    played = recorded.played
    replay = state.clone()

    def expect(condition: bool, check: str) -> None:
        if not condition:
            raise AssertionError(f"{state.game!r} kernel from {_describe(state)}: {check}")

    outcome = int(played.outcome[0])
    for step, (action, n) in enumerate(zip(recorded.actions, recorded.n_legal)):
        legal = replay.legal_actions()
        expect(len(legal) == n, f"action {step}: the kernel counted {n} legal actions, the engine {len(legal)}")
        expect(action in legal, f"action {step}: the kernel played {action}, not among the engine's {legal}")
        try:
            replay.apply_action(action)
        except RuntimeError as exc:  # an engine's safety guard (e.g. LapLimitError): the kernel's REPLAY
            expect(outcome == REPLAY and step == len(recorded.actions) - 1, f"action {step} raised {exc!r}")
            return step
    expect(outcome != REPLAY, "the kernel left the game to the engine (REPLAY), which raised no error")
    result = replay.result()
    if result is None:
        expect(outcome == CUT and len(recorded.actions) == max_actions, f"outcome {outcome} of a game not over")
    else:
        expect(outcome == (RULE_CAP if result.cap_reached else FINISHED), f"outcome {outcome} of a game over")
        winners = [p for p in range(state.game.num_players) if int(played.winners[0]) >> p & 1]
        expect(winners == list(result.winners), f"winners {winners}, the engine's {list(result.winners)}")
        expect(played.reasons[played.reason[0]] == result.reason, f"reason {played.reasons[played.reason[0]]!r}")
    expect(played.scores[0].tolist() == list(replay.scores()), f"scores {played.scores[0].tolist()}")
    if replay.mid_turn():
        final = canonical_json(replay.snapshot())
    else:
        final = replay.notation() if replay.game.info.has_notation else replay.to_json()
    text = played.final[0]
    expect((text.decode() if isinstance(text, bytes) else text) == final, f"final position {text!r}, not {final}")
    return len(recorded.actions)


def playthrough(game: Game, seed: int, detailed_steps: int = 60) -> str:
    """A seeded random game written out state by state, as a golden file for review.

    The first ``detailed_steps`` states show the state, the player to move (and, with hidden
    information, each player's information state) and the legal actions; every step shows the
    action taken; the end shows the final state, the result and returns. Long games of many
    legal actions stay a readable size, and a behaviour change still shows up as a diff.
    """
    lines = [f"game: {game!r}", f"seed: {seed}"]
    trajectory = _random_trajectory(game.new_initial_state(), seed, game.info.max_actions)
    for step, (state, action) in enumerate(trajectory):
        if step < detailed_steps or action is None:
            lines.append(f"state: {_trace(state)}")
            lines.append(f"player: {state.current_player()}")
            if not game.info.perfect_information:
                for p in range(game.num_players):
                    lines.append(f"observation {p}: {state.information_state_string(p)}")
        if action is None:
            lines.append(f"result: {json.dumps(state.result().to_dict())}")
            lines.append(f"returns: {state.returns()}")
        else:
            if step < detailed_steps:
                lines.append(f"legal: {' '.join(state.action_to_string(a) for a in state.legal_actions())}")
            lines.append(f"action: {state.action_to_string(action)}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- helpers


def _playout(start: State, seed: int, cap: int, report: dict) -> Iterator[tuple[str, int | None]]:
    rng = random.Random(seed ^ 0x5EED)
    final = start
    for step, (final, action) in enumerate(_random_trajectory(start, seed, cap)):
        report["hidden_varied"] += check_state(final, rng, f"seed {seed} step {step}")
        if final.game.info.multi_action_moves and not final.mid_turn() and not final.is_terminal():
            compared = _check_moves(final, f"seed {seed} step {step}")
            report["moves_compared" if compared else "moves_too_many"] += 1
        report["states"] += 1
        yield _trace(final), action
    _expect(
        final.is_terminal(), start.game, seed, len(final.history()), f"the game ends within its cap of {cap} actions"
    )
    record = GameRecord.from_state(final, seed=seed)
    replayed = GameRecord.from_json(record.to_json()).replay()
    _expect(replayed == final and replayed.history() == final.history(), start.game, seed, cap, "the record replays")


def _random_trajectory(start: State, seed: int, cap: int) -> Iterator[tuple[State, int | None]]:
    """The live state and the action a seeded random player takes; ``None`` after the end."""
    rng = random.Random(seed)
    state = start.clone()
    for _ in range(cap + 1):
        actions = state.legal_actions()
        action = rng.choice(actions) if actions else None
        yield state, action
        if action is None:
            return
        state.apply_action(action)


def _trace(state: State) -> str:
    return json.dumps(state.snapshot(), separators=(",", ":")) if state.mid_turn() else str(state)


def _check_moves(state: State, where: str, limit: int = 2000) -> bool:
    """Whole moves and action-by-action moves reach the same positions under the same canonical
    strings, and every partial move can be completed. Turns in progress that are the same state
    (by ``key()``) are explored once, so the orders of one set of actions cost nothing extra.
    Returns False (checking only what it reached) when there are more than ``limit`` moves."""
    game = state.game
    by_actions: dict[str, str] = {}
    seen: set = set()
    stack: list[tuple[State, list[int]]] = [(state, [])]
    while stack and len(by_actions) <= limit:
        partial, path = stack.pop()
        actions = partial.legal_actions()
        _expect(
            bool(actions) or not partial.mid_turn(), game, 0, len(path), f"{where}: a partial move can be completed"
        )
        for action in actions:
            after = partial.child(action)
            if not after.mid_turn():
                move = state._move_string(path + [action])
                position = after.to_json()
                _expect(
                    by_actions.setdefault(move, position) == position,
                    game,
                    0,
                    len(path),
                    f"{where}: move {move!r} reaches one position whatever the order of its actions",
                )
            elif after.key() not in seen:
                seen.add(after.key())
                stack.append((after, path + [action]))
    if stack:
        return False
    try:
        moves = state.legal_moves(limit=limit)
    except EnumerationLimitError:
        return False
    _expect(len(set(moves)) == len(moves), game, 0, 0, f"{where}: legal_moves() lists each move once")
    _expect(set(moves) == set(by_actions), game, 0, 0, f"{where}: legal_moves() are the moves built action by action")
    for move in moves:
        after = state.clone()
        after.apply_move(move)
        _expect(after.to_json() == by_actions[move], game, 0, 0, f"{where}: apply_move({move!r}) is the same move")
    return True


def _bad_actions(state: State, actions: list[int]) -> list[Any]:
    """A few ints outside the legal list, plus values of the wrong type."""
    legal = set(actions)
    illegal = list(itertools.islice((a for a in range(-3, max(actions, default=0) + 4) if a not in legal), 4))
    return illegal + [True, None, 1.0]


def _expect_error(state, method, argument, error, snapshot, expect) -> None:
    what = f"{method.__name__}({argument!r})"
    try:
        method(argument)
    except error as exc:
        expect(bool(str(exc)), f"{what} raises with a message")
    except Exception as exc:
        expect(False, f"{what} raises {type(exc).__name__}: {exc}, not a {error.__name__}")
    else:
        expect(False, f"{what} is refused")
    expect(_snapshot(state) == snapshot, f"{what} leaves the state unchanged")


def _snapshot(state: State) -> tuple:
    return (state.key(), tuple(state.history()))


def _describe(state: State) -> str:
    try:
        return str(state)
    except PositionError:
        return f"(turn in progress after {state.history_strings()})"


def _expect(condition: bool, game: Game, seed: int, step: int, check: str) -> None:
    if not condition:
        raise AssertionError(f"{game!r} seed {seed} step {step}: {check}")
