"""Execute notebooks again and again, as the test suite does, and count the stalls.

    python scripts/stress_notebooks.py                 # every explore notebook, 20 times each
    python scripts/stress_notebooks.py --runs 5 notebooks/sygo/explore.ipynb

Each run executes the notebook in a fresh kernel in quick mode (``TABLETOP_QUICK=1``), in its
folder, with the test suite's client (``tests.notebook_client.WatchedClient``): a cell that
waits on an idle kernel for 30 s is a **stall**, reported with the cell; any other error is a
**failure**. A cell the kernel is busy with is never cut short. The table at the end gives, per
notebook, the runs, stalls, failures and the seconds per run; the exit status is 1 if any run
stalled or failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import nbformat  # noqa: E402

from tests.notebook_client import StalledCellError, WatchedClient  # noqa: E402


def run_once(path: Path, kernel: str = "python3") -> tuple[str, float, str]:
    """One execution of ``path``: ("ok" | "stall" | "failure", seconds, what went wrong)."""
    nb = nbformat.read(path, as_version=4)
    client = WatchedClient(nb, timeout=600, kernel_name=kernel, resources={"metadata": {"path": str(path.parent)}})
    start = time.monotonic()
    try:
        client.execute()
    except StalledCellError as error:
        return "stall", time.monotonic() - start, str(error).splitlines()[0]
    except Exception as error:  # every other way a run can fail is counted and shown
        return (
            "failure",
            time.monotonic() - start,
            f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:200]}",
        )
    return "ok", time.monotonic() - start, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks to run (default: every explore notebook)")
    parser.add_argument("--runs", type=int, default=20, help="executions of each notebook (default 20)")
    parser.add_argument("--kernel", default="python3", help="the kernel to run them in (default python3)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    paths = [p.resolve() for p in args.notebooks] or sorted((ROOT / "notebooks").glob("*/explore.ipynb"))
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        parser.error(f"no such notebook: {', '.join(missing)}")
    os.environ["TABLETOP_QUICK"] = "1"  # the kernels inherit it
    rows = []
    for path in paths:
        name = path.relative_to(ROOT / "notebooks").as_posix() if path.is_relative_to(ROOT / "notebooks") else str(path)
        counts, seconds = {"ok": 0, "stall": 0, "failure": 0}, []
        for run in range(1, args.runs + 1):
            outcome, took, what = run_once(path, args.kernel)
            counts[outcome] += 1
            seconds.append(took)
            print(
                f"{name} run {run}/{args.runs}: {outcome} in {took:.1f} s" + (f": {what}" if what else ""), flush=True
            )
        rows.append((name, args.runs, counts["stall"], counts["failure"], sum(seconds) / len(seconds), max(seconds)))
    print(f"\n{'notebook':<28} {'runs':>5} {'stalls':>7} {'failures':>9} {'mean s':>7} {'max s':>6}")
    for name, runs, stalls, failures, mean, longest in rows:
        print(f"{name:<28} {runs:>5} {stalls:>7} {failures:>9} {mean:>7.1f} {longest:>6.1f}")
    return 1 if any(row[2] or row[3] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
