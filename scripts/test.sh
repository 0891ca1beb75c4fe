#!/usr/bin/env bash
# Set everything up, then run the whole test suite: rules, conformance, agents, simulation,
# widgets, every notebook headless (quick mode) and the Voila apps in headless Chromium.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -m "not browser"`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
if [ -z "${CHROMIUM_PATH:-}" ] && ! command -v chromium >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests"
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium
fi
# Compile every game's kernels into numba's cache first, once: the tests, notebooks and apps then
# load them (boards would otherwise think in Python while a compile runs in the background).
.venv/bin/tabletop-lab compile
export TABLETOP_QUICK=1
exec .venv/bin/python -m pytest -p no:cacheprovider "$@"
