"""The fuzz stage: malformed input of every kind must get a documented error, for every game.

``fuzz_game(game, seed=...)`` feeds a game's parsers and move API with inputs built by mutating
what random play produces: notations and JSON positions (truncated, characters changed, keys
deleted, duplicated or added, values of the wrong type, out of range, booleans for integers,
huge numbers, deep nesting), move strings and action ints, rule options and game records, plus
free text and JSON values from hypothesis. Every call must either succeed or raise one of the
documented errors (``RulesError``, ``PositionError``, ``ActionError``) within a generous time
limit, with a message shorter than ``MESSAGE_LIMIT`` (300) characters, and a refused move must
leave the state exactly as it was. Options with structured values are bent from their
``Option.example`` (Sinoda's board data). An accepted notation must be
canonical (``notation()`` gives it back), an accepted position must round-trip through
``to_dict()``, and a boolean put where an integer was must be refused.

It returns, per category, how many inputs were ``tried`` and how many were ``handled`` (as the
rules above ask); any other outcome raises ``AssertionError`` listing the inputs (excerpts) and
what went wrong. No game needs to write any of this: the conformance tests run it for every
registered game (``tests/test_fuzz.py``).

Needs ``hypothesis`` (a test dependency) for the generated text and JSON.
"""

from __future__ import annotations

import copy
import json
import random
import string
import threading
from collections.abc import Callable, Iterator
from typing import Any

from .core import Game, State, canonical_json
from .errors import ActionError, EnumerationLimitError, PositionError, RulesError, excerpt
from .records import GameRecord
from .registry import load_game

__all__ = ["CATEGORIES", "MESSAGE_LIMIT", "fuzz_game"]

#: What ``fuzz_game`` reports on, in order.
CATEGORIES = ("notation", "json", "dict", "moves", "actions", "options", "records")

#: The errors the API documents for bad input.
DOCUMENTED = (RulesError, PositionError, ActionError)

#: Every message of a documented error is shorter than this (characters): it names what is wrong
#: and quotes the input only in excerpts (``errors.excerpt``).
MESSAGE_LIMIT = 300

#: A call taking longer than this (seconds) counts as a hang. Generous: it catches endless
#: loops, never slowness, on a loaded machine.
CALL_LIMIT_S = 20.0

#: Values of the wrong type, out of range or absurd, put in place of a value.
_ODD_VALUES: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2, 7, 2**31, -(2**63), 10**30, 1.5, float("nan"), "", "x", "0", "é\x00",
    [], [0], [[]], {}, {"a": 1}, "x" * 10_000,
)  # fmt: skip
_PLAYOUT_ACTIONS = 400  # the longest random playout that samples a position
_HUGE_INT = 10**5000  # Python refuses to print it with str() or repr()
_DEEP = 100_000  # nesting depth of the deepest inputs
_TEXT_NOISE = string.digits + string.ascii_letters + " ,;:/-+.[]{}()\"'\\\t\n\x00é€"


def fuzz_game(
    game: Game,
    *,
    seed: int = 0,
    cases: int = 150,
    positions: int = 6,
    hypothesis_examples: int = 60,
    call_limit: float = CALL_LIMIT_S,
) -> dict[str, dict[str, int]]:
    """Fuzz ``game``'s parsers, moves, options and records; ``{category: {"tried", "handled"}}``.

    About ``cases`` inputs are built per category from ``positions`` positions sampled from
    seeded random play, plus fixed odd values and ``hypothesis_examples`` inputs from
    hypothesis for the text and JSON categories. ``call_limit`` bounds each call (seconds).
    """
    fuzzer = _Fuzzer(game, random.Random(seed), call_limit)
    try:
        sample = fuzzer.sample_positions(positions)
        if game.info.has_notation:
            fuzzer.notations(sample, cases, hypothesis_examples, seed)
        fuzzer.json_texts(sample, cases, hypothesis_examples, seed)
        fuzzer.dicts(sample, cases, hypothesis_examples, seed)
        fuzzer.moves(sample, cases, hypothesis_examples, seed)
        fuzzer.actions(sample, cases)
        fuzzer.options(cases)
        fuzzer.records(cases)
    except _Hang:
        pass  # recorded as a failure; the stuck (daemon) thread cannot be stopped, so the stage ends here
    if fuzzer.failures:
        shown = "\n".join(f"  - {f}" for f in fuzzer.failures[:12])
        more = f"\n  ... and {len(fuzzer.failures) - 12} more" if len(fuzzer.failures) > 12 else ""
        raise AssertionError(f"{game!r}: {len(fuzzer.failures)} fuzz input(s) mishandled:\n{shown}{more}")
    return fuzzer.counts


class _Fuzzer:
    def __init__(self, game: Game, rng: random.Random, call_limit: float):
        self.game = game
        self.rng = rng
        self.call_limit = call_limit
        self.counts = {c: {"tried": 0, "handled": 0} for c in CATEGORIES if c != "notation" or game.info.has_notation}
        self.failures: list[str] = []

    # --- running one input -------------------------------------------------------------

    def call(self, category: str, what: str, function: Callable, *args: Any) -> tuple[bool, Any]:
        """Run ``function(*args)`` with a time limit; ``(True, value)`` or ``(False, error)``.

        Counts the input as tried; an undocumented exception or a hang is recorded as a
        failure (returned as ``(False, None)``) and must not be counted as handled by callers.
        """
        self.counts[category]["tried"] += 1
        try:
            return True, _run_with_limit(function, args, self.call_limit)
        except _Hang:
            self.fail(category, what, f"no answer within {self.call_limit:g} s (endless loop?)")
            raise
        except DOCUMENTED as exc:
            return False, exc
        except Exception as exc:  # the very thing the stage exists to find
            self.fail(category, what, f"{type(exc).__name__}: {excerpt(str(exc), limit=160)}")
            return False, None

    def handled(self, category: str) -> None:
        self.counts[category]["handled"] += 1

    def fail(self, category: str, what: str, problem: str) -> None:
        self.failures.append(f"{category}: {what} -> {problem}")

    def expect_parse(self, category: str, parse: Callable, value: Any, check: Callable[[State], str | None]) -> None:
        """Parse ``value``: a documented error, or a state that passes ``check`` (None = fine)."""
        what = excerpt(value)
        ok, result = self.call(category, what, parse, value)
        if not ok:
            if result is not None:
                self._check_message(category, what, result)
            return
        problem = check(result)
        if problem:
            self.fail(category, what, problem)
        else:
            self.handled(category)

    def _check_message(self, category: str, what: str, error: Exception) -> None:
        message = str(error)
        if not message or len(message) >= MESSAGE_LIMIT:
            self.fail(
                category,
                what,
                f"{type(error).__name__} message of {len(message)} characters (expected 1..{MESSAGE_LIMIT - 1}): "
                f"{excerpt(message, limit=120)}",
            )
        else:
            self.handled(category)

    # --- positions from play ---------------------------------------------------------------

    def sample_positions(self, count: int) -> list[State]:
        """Positions (never mid-turn) from seeded random games, the initial one first."""
        state = self.game.new_initial_state()
        found = [state.clone()]
        cap = min(self.game.info.max_actions, _PLAYOUT_ACTIONS)
        while len(found) < count:
            state = self.game.new_initial_state()
            for _ in range(self.rng.randrange(1, cap + 1)):
                actions = state.legal_actions()
                if not actions:
                    break
                state.apply_action(self.rng.choice(actions))
            while state.mid_turn():
                state.apply_action(self.rng.choice(state.legal_actions()))
            found.append(state)
        return found

    # --- categories ----------------------------------------------------------------------

    def notations(self, sample: list[State], cases: int, examples: int, seed: int) -> None:
        texts = [s.notation() for s in sample]
        parse = self.game.state_from_notation

        def canonical(state: State, text: str) -> str | None:
            return None if state.notation() == text else f"accepted, but notation() gives {excerpt(state.notation())}"

        for _ in range(cases):
            text = _mutate_text(self.rng.choice(texts), self.rng)
            self.expect_parse("notation", parse, text, lambda s, t=text: canonical(s, t))
        for odd in (None, 3, b"", texts[0].encode(), [texts[0]], "[" * _DEEP):
            self.expect_parse("notation", parse, odd, lambda s: "accepted a value that is not a notation string")
        for text in _hypothesis_texts(texts, examples, seed):
            self.expect_parse("notation", parse, text, lambda s, t=text: canonical(s, t))

    def json_texts(self, sample: list[State], cases: int, examples: int, seed: int) -> None:
        texts = [s.to_json() for s in sample]
        parse = self.game.state_from_json
        for _ in range(cases):
            text = self.rng.choice(texts)
            if self.rng.random() < 0.5:
                text = _dumps(_mutate_value(json.loads(text), self.rng)[0], text)
            text = _mutate_json_text(text, self.rng)
            self.expect_parse("json", parse, text, self._round_trips)
        for odd in (b"\xff\xfe\x00", texts[0].encode("utf-16"), "[" * _DEEP, '{"a":' * _DEEP, None, 5):
            self.expect_parse("json", parse, odd, self._round_trips)
        for text in _hypothesis_texts(texts, examples, seed):
            self.expect_parse("json", parse, text, self._round_trips)

    def dicts(self, sample: list[State], cases: int, examples: int, seed: int) -> None:
        originals = [s.to_dict() for s in sample]
        for _ in range(cases):
            data, bool_for_int = _mutate_value(copy.deepcopy(self.rng.choice(originals)), self.rng)

            def check(state: State, bool_for_int: bool = bool_for_int) -> str | None:
                return "accepted a boolean where an integer was" if bool_for_int else self._round_trips(state)

            self.expect_parse("dict", self.game.state_from_dict, data, check)
        for odd in (None, [], "{}", 3, _deep_list(_DEEP), {1: 2, "game": self.game.name, (1,): 3}):
            self.expect_parse("dict", self.game.state_from_dict, odd, self._round_trips)
        for data in _hypothesis_positions(originals, examples, seed):
            self.expect_parse("dict", self.game.state_from_dict, data, self._round_trips)

    def _round_trips(self, state: State) -> str | None:
        data = state.to_dict()
        again = self.game.state_from_dict(json.loads(json.dumps(data)))
        return None if again == state and again.to_dict() == data else "accepted, but to_dict() does not round-trip"

    def moves(self, sample: list[State], cases: int, examples: int, seed: int) -> None:
        states = self._states_with_turns_in_progress(sample)
        known = [self._move_strings(state) for state in states]  # listed once per state
        for _ in range(cases):
            index = self.rng.randrange(len(states))
            text = _mutate_text(self.rng.choice(known[index]), self.rng) if known[index] else _noise(self.rng)
            self._try_move(states[index], text)
        state = self.rng.choice(states)
        for odd in (None, 0, _HUGE_INT, b"0", ["0"], "", " ", "\x00", "x" * 1_000_000, "9" * 5000):
            self._try_move(state, odd)
        for text in _hypothesis_texts(known[0] or ["0"], examples, seed):
            self._try_move(self.rng.choice(states), text)

    def _states_with_turns_in_progress(self, sample: list[State]) -> list[State]:
        """The sample plus a state one action into a turn, for games of several actions a turn."""
        states = [s for s in sample if not s.is_terminal()] or sample
        extra = []
        for state in states:
            for action in state.legal_actions()[:5]:
                child = state.child(action)
                if child.mid_turn():
                    extra.append(child)
                    break
        return states + extra

    def _move_strings(self, state: State) -> list[str]:
        """The legal move strings, or the action strings where there are too many moves to list."""
        ok, moves = self.call("moves", "legal_moves()", _listed_moves, state)
        if not ok:  # mid-turn, legal_moves() refuses: a move is in progress
            if moves is not None:
                self._check_message("moves", "legal_moves()", moves)
            return [state.action_to_string(a) for a in state.legal_actions()]
        self.handled("moves")
        return moves or [state.action_to_string(a) for a in state.legal_actions()]

    def _try_move(self, state: State, text: Any) -> None:
        for method in ("apply_move", "parse_move", "string_to_action"):
            probe = state.clone()
            what = f"{method}({excerpt(text)})"
            ok, error = self.call("moves", what, getattr(probe, method), text)
            if ok or error is None:
                if ok:
                    self.handled("moves")
                continue
            if _snapshot(probe) != _snapshot(state):
                self.fail("moves", what, f"refused with {type(error).__name__} but changed the state")
            else:
                self._check_message("moves", what, error)

    def actions(self, sample: list[State], cases: int) -> None:
        states = self._states_with_turns_in_progress(sample)
        top = max((a for s in states for a in s.legal_actions()), default=10)
        odd: list[Any] = [True, False, None, 1.0, "0", -1, -(2**63), 2**63, _HUGE_INT, -_HUGE_INT, [0]]
        for index in range(cases + len(odd)):
            state = self.rng.choice(states)
            action = odd[index - cases] if index >= cases else self.rng.randrange(-3, 2 * top + 10)
            legal = state.legal_actions()
            probe = state.clone()
            what = f"apply_action({excerpt(action)})"
            ok, error = self.call("actions", what, probe.apply_action, action)
            if ok:
                if type(action) is int and action in legal:
                    self.handled("actions")
                else:
                    self.fail("actions", what, "accepted an action not in legal_actions()")
            elif error is not None:
                if _snapshot(probe) != _snapshot(state):
                    self.fail("actions", what, f"refused with {type(error).__name__} but changed the state")
                else:
                    self._check_message("actions", what, error)
            ok, error = self.call("actions", f"action_to_string({excerpt(action)})", state.action_to_string, action)
            if ok or error is not None:
                self.handled("actions")

    def options(self, cases: int) -> None:
        name = self.game.name
        specs = type(self.game).option_specs + type(self.game).param_specs
        odd = [*_ODD_VALUES, _HUGE_INT, [1, [2]], {"k": {(1, 2): 3}}, {(1, 2): 3}, {1, 2}, object(), _deep_list(_DEEP)]
        trials: list[tuple[Any, dict]] = [(name, {spec.name: value}) for spec in specs for value in odd]
        trials += [(name, {key: 1}) for key in ("", "nonexistent_option", "x" * 100_000, "é")]
        trials += [(bad, {}) for bad in (None, 3, [name], {name: 1}, name.upper(), name + "\x00", "x" * 100_000)]
        for _ in range(cases):
            spec = self.rng.choice(specs) if specs else None
            if spec is not None:
                trials.append((name, {spec.name: _mutate_value({"v": spec.default}, self.rng)[0].get("v")}))
        for spec in specs:  # structured values (Sinoda's board data), bent one part at a time
            if spec.example is not None:
                for _ in range(cases):
                    bent = _mutate_value(copy.deepcopy(spec.example), self.rng)[0]
                    trials.append((name, {spec.name: bent}))
        for game_name, options in trials:
            what = f"load_game({excerpt(game_name, limit=30)}, **{excerpt(options, limit=60)})"
            ok, result = self.call("options", what, lambda n=game_name, o=options: _load_and_show(n, o))
            if ok:
                self.handled("options")
            elif result is not None:
                self._check_message("options", what, result)

    def records(self, cases: int) -> None:
        state = self.game.new_initial_state()
        for _ in range(self.rng.randrange(1, 40)):
            actions = state.legal_actions()
            if not actions:
                break
            state.apply_action(self.rng.choice(actions))
        original = GameRecord.from_state(state, seed=1).to_dict()
        for _ in range(cases):
            data = copy.deepcopy(original)
            if data["actions"] and self.rng.random() < 0.5:
                i = self.rng.randrange(len(data["actions"]))
                data["actions"][i] = _mutate_text(data["actions"][i], self.rng)
            else:
                data = _mutate_value(data, self.rng)[0]
            what = f"GameRecord.from_dict({excerpt(data)}).replay()"
            ok, error = self.call("records", what, lambda d=data: GameRecord.from_dict(d).replay())
            if ok:
                self.handled("records")
            elif error is not None:
                self._check_message("records", what, error)


class _Hang(Exception):
    """A call did not return in time: its thread cannot be stopped, so fuzzing stops."""


def _run_with_limit(function: Callable, args: tuple, limit: float) -> Any:
    """``function(*args)`` in a daemon thread (a hung one never blocks the interpreter's exit);
    raises what it raised, or ``_Hang`` after ``limit`` seconds."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = function(*args)
        except BaseException as exc:  # handed to the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="fuzz-call", daemon=True)
    thread.start()
    thread.join(limit)
    if thread.is_alive():
        raise _Hang
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def _load_and_show(name: Any, options: dict) -> Game:
    """``load_game``, and the accepted game must also show itself (``repr``)."""
    game = load_game(name, **options)
    repr(game)
    return game


def _listed_moves(state: State) -> list[str] | None:
    try:
        return state.legal_moves()
    except EnumerationLimitError:  # more moves than it will list
        return None


def _dumps(value: Any, fallback: str) -> str:
    """``value`` as JSON text; ``fallback`` when it has no JSON form (a huge int, deep nesting)."""
    try:
        return canonical_json(value)
    except (ValueError, RecursionError):
        return fallback


def _snapshot(state: State) -> tuple:
    return (state.key(), tuple(state.history()))


# ----------------------------------------------------------------------------- mutations


def _mutate_text(text: str, rng: random.Random) -> str:
    """``text`` changed in one or two small ways a careless user or an attacker might."""
    for _ in range(rng.choice((1, 1, 2))):
        i = rng.randrange(len(text) + 1)
        op = rng.randrange(12)
        if op == 0:
            text = text[:i]  # truncated
        elif op == 1:
            text = text[:i] + text[i + 1 :]  # a character deleted
        elif op == 2:
            text = text[:i] + rng.choice(_TEXT_NOISE) + text[i:]  # a character inserted
        elif op == 3:
            text = text[:i] + rng.choice(_TEXT_NOISE) + text[i + 1 :]  # a character changed
        elif op == 4:
            text = text[:i] + text[i:] + text[i:]  # the tail repeated
        elif op == 5:
            text = _replace_number(text, rng, rng.choice(("9" * 5000, "-1", "00", "007", "4294967296", "1e3", "")))
        elif op == 6:
            text = text.upper() if rng.random() < 0.5 else text.swapcase()
        elif op == 7:
            text = rng.choice((" ", "\t", "\n", "  ")) + text if rng.random() < 0.5 else text + rng.choice((" ", "\n"))
        elif op == 8:
            text = text.replace(" ", rng.choice(("", "  ", "\t", ","))) if " " in text else text + " " + text
        elif op == 9:
            text = _noise(rng)
        elif op == 10:
            text = text * rng.choice((2, 3, 1000))
        else:
            j = rng.randrange(len(text) + 1)
            text = text[: min(i, j)] + text[max(i, j) :]  # a span cut out
    return text


def _replace_number(text: str, rng: random.Random, replacement: str) -> str:
    spans = [(i, j) for i, j in _digit_runs(text)]
    if not spans:
        return text + replacement
    i, j = rng.choice(spans)
    return text[:i] + replacement + text[j:]


def _digit_runs(text: str) -> Iterator[tuple[int, int]]:
    i = 0
    while i < len(text):
        if text[i].isdigit():
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            yield i, j
            i = j
        else:
            i += 1


def _noise(rng: random.Random) -> str:
    return "".join(rng.choice(_TEXT_NOISE) for _ in range(rng.randrange(0, 30)))


def _mutate_json_text(text: str, rng: random.Random) -> str:
    """JSON text broken or bent: truncated, a key duplicated, a huge number, deep nesting..."""
    op = rng.randrange(6)
    if op == 0:
        return text[: rng.randrange(len(text) + 1)]
    if op == 1 and text.startswith("{") and len(text) > 2:
        return text[:1] + text[1:].split(",", 1)[0] + "," + text[1:]  # the first key given twice
    if op == 2:
        return _replace_number(text, rng, rng.choice(("9" * 5000, "-0", "1e999", "NaN", "Infinity", "1.0", "true")))
    if op == 3:
        depth = rng.choice((10, 1000, _DEEP))
        return "[" * depth + text + "]" * depth
    if op == 4:
        return _mutate_text(text, rng)
    return text  # the (possibly value-mutated) text as it is


def _mutate_value(data: Any, rng: random.Random) -> tuple[Any, bool]:
    """``data`` (a JSON value, changed in place where it is a container) with one part changed.

    Returns the value and whether the change put a boolean where an integer was.
    """
    parent, key = _random_slot(data, rng)
    if parent is None:
        return rng.choice(_ODD_VALUES), False
    old = parent[key]
    op = rng.randrange(9)
    bool_for_int = False
    if op == 0:
        del parent[key]
    elif op == 1 and isinstance(parent, dict):
        parent[rng.choice((key + "_", key.upper(), 1, "", "game "))] = copy.deepcopy(old)  # an extra key
    elif op == 1:
        parent.insert(key, copy.deepcopy(old))  # an element duplicated
    elif op == 2 and type(old) is int:
        parent[key] = rng.choice((True, False))
        bool_for_int = True
    elif op == 3 and type(old) is int:
        parent[key] = old + rng.choice((-(10**9), -old - 1, 1, 10**9, 2**63, _HUGE_INT))
    elif op == 4:
        parent[key] = _deep_list(rng.choice((10, 10_000)))
    elif op == 5 and isinstance(old, list):
        parent[key] = old + old if old and rng.random() < 0.5 else old[: rng.randrange(len(old) + 1)]
    elif op == 6 and isinstance(old, str):
        parent[key] = _mutate_text(old, rng)
    else:
        parent[key] = rng.choice(_ODD_VALUES)
    return data, bool_for_int


def _random_slot(data: Any, rng: random.Random) -> tuple[Any, Any]:
    """A random (container, key or index) inside ``data``, or ``(None, None)`` for a scalar."""
    slots: list[tuple[Any, Any]] = []
    stack = [data]
    while stack and len(slots) < 10_000:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            slots.append((node, key))
            if isinstance(value, (dict, list)):
                stack.append(value)
    return rng.choice(slots) if slots else (None, None)


def _deep_list(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


# ----------------------------------------------------------------------------- hypothesis


def _hypothesis_texts(examples_of: list[str], count: int, seed: int) -> list[str]:
    """``count`` strings from hypothesis: free text over the characters the valid ones use,
    plus some noise, so that near-valid strings turn up as well as arbitrary ones."""
    if count <= 0:
        return []
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    alphabet = sorted(set("".join(examples_of)) | set(" ,-/\n\x00é"))
    strategy = st.one_of(
        st.text(alphabet=alphabet, max_size=80),
        st.sampled_from(examples_of).flatmap(
            lambda valid: st.builds(
                lambda i, s: valid[:i] + s + valid[i:], st.integers(0, len(valid)), st.text(max_size=3)
            )
        ),
        st.text(max_size=40),
    )
    found: list[str] = []

    @hypothesis_seed(seed)
    @settings(max_examples=count, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(text: str) -> None:
        found.append(text)

    collect()
    return found


def _hypothesis_positions(originals: list[dict], count: int, seed: int) -> list[Any]:
    """``count`` JSON values from hypothesis: objects with a position's keys and arbitrary
    values (near-valid), objects of arbitrary keys, and any JSON value."""
    if count <= 0:
        return []
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10)
    values = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=5), inner, max_size=5),
        max_leaves=20,
    )
    near = st.sampled_from(originals).flatmap(
        lambda original: st.fixed_dictionaries({k: st.just(v) | values for k, v in original.items()})
    )
    strategy = near | st.dictionaries(st.text(max_size=8), values, max_size=6) | values
    found: list[Any] = []

    @hypothesis_seed(seed)
    @settings(max_examples=count, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found
