#!/usr/bin/env bash
# Create .venv/ in the repo root (once) and install tabletop_lab into it with the given extras.
#   bash scripts/setup.sh [extras]      extras: notebooks (default), test, dev
# The install runs only when the venv is new or pyproject.toml or the extras changed since the
# last install (a stamp in .venv/ records them); the package itself is installed editable.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-notebooks}"
python="${PYTHON:-$(command -v python3.11 || command -v python3)}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "tabletop_lab needs Python 3.11 or newer; $python is $("$python" --version 2>&1)" >&2
    exit 2
fi
if [ ! -x .venv/bin/python ]; then
    "$python" -m venv .venv
fi
stamp=.venv/.tabletop-lab-installed
wanted="$(sha256sum pyproject.toml | cut -d' ' -f1) ${extras}"
if [ -f "$stamp" ] && grep -qxF "$wanted" "$stamp"; then
    exit 0  # up to date: nothing to install
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[${extras}]"
echo "$wanted" >> "$stamp"
