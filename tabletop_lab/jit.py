"""Shared pieces of compiled playout kernels; imported by a game's ``kernel.py`` only, so
``import tabletop_lab`` never loads numba.

``next_draw`` and ``choice_index`` are the compiled twins of ``tabletop_lab.streams``: the same
arithmetic on unsigned 64-bit integers. Kernels are compiled with ``njit(cache=True)``: the first
use on a machine compiles them (a few seconds) and later processes load the machine code from
``__pycache__`` (or ``NUMBA_CACHE_DIR``). numba re-checks a cached kernel against its own source
file only, though kernels also compile in code and constants from other modules; so importing
this module first deletes the package's caches whenever one of those modules has changed
(``forget_stale_caches``).

``precompile.compile_game`` records each compiled path of a game it has compiled
(``record_compiled``, under a key such as ``"sygo.games"``: ``kernels.compiled_path_keys``)
beside numba's cache, so that ``is_compiled`` can tell, before any call, whether that path
would load from the cache or wait for the compiler (``kernels.ready_kernels_only``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import numba
import numpy as np
from numba.core.registry import CPUDispatcher

from .streams import GOLDEN, MIX1, MIX2

_PACKAGE = Path(__file__).resolve().parent
#: Besides a kernel's own file, what its compiled code is made of: this module, the streams'
#: constants, ``kernels``' codes, the shared MCTS and alpha-beta searches, and the games' rules and tables.
_COMPILED_IN = ("jit.py", "streams.py", "kernels.py", "compiled_search.py", "compiled_alphabeta.py", "games/**/*.py")
_STAMP = "kernel-sources.sha256"


def compiled_sources(package: Path = _PACKAGE) -> list[Path]:
    """The sources compiled into the kernels (``_COMPILED_IN``), sorted: every module of a game
    (a kernel split into modules, such as Sygo's ``kernel_*.py``, included)."""
    return sorted({path for pattern in _COMPILED_IN for path in package.glob(pattern)})


def sources_digest(package: Path = _PACKAGE) -> str:
    """A hash of the sources compiled into the kernels (``compiled_sources``)."""
    return hashlib.sha256(b"".join(path.read_bytes() for path in compiled_sources(package))).hexdigest()


def forget_stale_caches(package: Path = _PACKAGE, cache_dir: str | None = None, digest: str | None = None) -> bool:
    """Delete numba's caches of ``package`` when the sources compiled into them changed since
    they were written (a hash of ``_COMPILED_IN`` kept in ``__pycache__``); return whether it did.

    numba would otherwise load a kernel compiled with the old shared code, since it compares a
    cache with the kernel's own file only. Caches under ``cache_dir`` (``NUMBA_CACHE_DIR``) count
    when their path names the package. A read-only install keeps its caches as they are.
    ``digest``: ``sources_digest(package)``, when the caller has it already.
    """
    digest = digest or sources_digest(package)
    stamp = package / "__pycache__" / _STAMP
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return False
        stale = list(package.rglob("*.nb[ic]"))
        if cache_dir:
            stale += [path for path in Path(cache_dir).rglob("*.nb[ic]") if package.name in path.parts]
        for path in stale:
            path.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # not writable: numba caches elsewhere, and cannot be told
        return False
    return True


_SOURCES = sources_digest()
forget_stale_caches(cache_dir=numba.config.CACHE_DIR or None, digest=_SOURCES)


def _compiled_stamp(key: str) -> Path:
    """Where ``record_compiled`` writes for ``key`` (a game's name, or one of its compiled paths,
    ``"sygo.games"``): beside numba's cache (``NUMBA_CACHE_DIR``, else the package's
    ``__pycache__``, where numba caches an installed package that it may write)."""
    folder = Path(numba.config.CACHE_DIR) if numba.config.CACHE_DIR else _PACKAGE / "__pycache__"
    return folder / f"tabletop_lab-compiled-{key}.sha256"


@contextlib.contextmanager
def compiling(game_name: str) -> Iterator[None]:
    """One process at a time compiles a game (a file lock beside the cache, where the system has
    ``fcntl``): a second compile of it waits, then loads what the first wrote."""
    lock = _compiled_stamp(game_name).with_suffix(".lock")
    try:
        import fcntl

        lock.parent.mkdir(parents=True, exist_ok=True)
        handle = lock.open("a")
    except (ImportError, OSError):  # no file locks here: compile side by side, as numba allows
        yield
        return
    with handle:
        with contextlib.suppress(OSError):  # a file system without locks: as above
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def record_compiled(key: str, seconds: float | None = None) -> None:
    """Record that the compiled path ``key`` (``"sygo.games"``) is in numba's cache, for these
    sources, and (``seconds``) how long that compile took, beside the stamp: it outlives the stamp
    when the sources change, so that the next compile can say how long it will take
    (``compile_seconds``)."""
    stamp = _compiled_stamp(key)
    with contextlib.suppress(OSError):  # not writable: is_compiled then says True, see there
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(_SOURCES)
        if seconds is not None:
            stamp.with_suffix(".seconds").write_text(f"{seconds:.1f}\n")


def compile_seconds(key: str) -> float | None:
    """How long the last measured compile of the compiled path ``key`` took on this machine, or None."""
    try:
        return float(_compiled_stamp(key).with_suffix(".seconds").read_text())
    except (OSError, ValueError):
        return None


def is_compiled(key: str) -> bool:
    """Whether ``record_compiled(key)`` ran with the present sources and cache folder: the
    compiled path loads from numba's cache (about a second) instead of compiling (up to half a
    minute). Where nothing can be recorded (a read-only folder) this cannot be known, and is
    taken to be so: the caller compiles at first use, as numba would."""
    stamp = _compiled_stamp(key)
    try:
        return stamp.read_text() == _SOURCES
    except OSError:
        folder = next(path for path in (stamp.parent, *stamp.parents) if path.exists())
        return not os.access(folder, os.W_OK)


__all__ = [
    "njit",
    "internal",
    "next_draw",
    "choice_index",
    "write_decimal",
    "copy_into",
    "grown",
    "grown_rows",
    "compiling",
    "record_compiled",
    "compile_seconds",
    "is_compiled",
]

_GOLDEN = np.uint64(GOLDEN)
_M1 = np.uint64(MIX1)
_M2 = np.uint64(MIX2)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


def njit(function):
    """numba's ``njit`` as every kernel uses it: cached on disk, no Python objects."""
    return numba.njit(cache=True, nogil=True)(function)


class _Internal(CPUDispatcher):
    """A compiled function without wrappers for calls from Python (``internal``). Called from
    Python it runs as Python (``py_func``): its compiled code has no entry for such a call."""

    def __call__(self, *args, **kwargs):
        return self.py_func(*args, **kwargs)


def internal(function):
    """``njit`` for a function that compiled code calls: numba then builds no wrappers to call
    its compiled code from Python (a CPython and a C one for each signature), whose code it
    generates and LLVM compiles at a first use on a machine (some 0.05 s a signature). Called
    from Python (a kernel run as Python, ``.py_func``, as a test does), it runs as Python."""
    if numba.config.DISABLE_JIT:
        return function
    options = {"nopython": True, "nogil": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
    dispatcher = _Internal(py_func=function, locals={}, targetoptions=options)
    dispatcher.enable_caching()
    return dispatcher


@internal
def next_draw(state):
    """``(state, draw)``: see ``tabletop_lab.streams.next_draw``; ``state`` is a ``np.uint64``."""
    state = state + _GOLDEN
    z = (state ^ (state >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return state, z ^ (z >> _S31)


@internal
def choice_index(draw, n):
    """See ``tabletop_lab.streams.choice_index``; returns an int64."""
    return np.int64(((draw >> _S32) * np.uint64(n)) >> _S32)


@internal
def write_decimal(out, at, value):
    """``value`` (>= 0) in decimal ASCII at ``out[at]``; the position after it. Kernels write their
    final positions' text with it (numbers of up to 19 digits: 10**19 overflows int64)."""
    digits = 1
    while digits < 19 and value >= 10**digits:
        digits += 1
    for d in range(digits - 1, -1, -1):
        out[at + d] = 48 + value % 10
        value //= 10
    return at + digits


def text_pieces(pieces) -> tuple[np.ndarray, np.ndarray]:
    """The fixed pieces of text a kernel writes its canonical JSON from (keys with their
    punctuation, words such as ``null``), for ``write_piece``: their ASCII one after another,
    and where each starts (one entry more: where the last ends)."""
    data = np.frombuffer("".join(pieces).encode("ascii"), np.uint8)
    return data, np.cumsum([0, *map(len, pieces)]).astype(np.int64)


@internal
def write_piece(out, at, data, starts, piece):
    """Piece number ``piece`` of ``text_pieces``'s ``(data, starts)`` at ``out[at]``; the position
    after it. Every kernel that writes canonical JSON writes its fixed text with this."""
    for k in range(starts[piece], starts[piece + 1]):
        out[at] = data[k]
        at += 1
    return at


@internal
def copy_into(target, source):
    """``target[: len(source)] = source`` for 1-D arrays, as a loop. Kernels copy arrays with it,
    never by assigning an array to a slice: numba compiles that assignment with its broadcasting
    checks and their error messages, string formatting included, which costs some 4 s more at a
    kernel's first compile (measured on numba 0.68); the loop compiles to the same copy."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@internal
def grown(a):
    """``a`` copied into an array twice as long (the rest uninitialised): a growing buffer."""
    bigger = np.empty(2 * a.shape[0], a.dtype)
    copy_into(bigger, a)
    return bigger


@internal
def grown_rows(a):
    """``a`` copied into an array with twice as many rows (the rest uninitialised)."""
    bigger = np.empty((2 * a.shape[0], a.shape[1]), a.dtype)
    for row in range(a.shape[0]):
        copy_into(bigger[row], a[row])
    return bigger
