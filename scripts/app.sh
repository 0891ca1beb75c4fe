#!/usr/bin/env bash
# Set everything up, then serve the Voila apps on 127.0.0.1; the gallery is at
# http://127.0.0.1:${PORT:-8866}/voila/render/index.ipynb (printed once the server is up).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh notebooks
browser=()
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    browser=(--no-browser)  # no desktop: just print the address (a console browser would take the terminal)
fi
# Compile the games' kernels into numba's cache meanwhile (once per machine; at low priority, so the
# apps start first): otherwise an app's first computer move on a new machine waits for the compiler.
nice -n 10 .venv/bin/tabletop-lab compile > /dev/null 2>&1 &
exec .venv/bin/tabletop-lab serve --port "${PORT:-8866}" "${browser[@]}"
