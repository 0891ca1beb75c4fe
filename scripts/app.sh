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
exec .venv/bin/tabletop-lab serve --port "${PORT:-8866}" "${browser[@]}"
