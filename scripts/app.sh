#!/usr/bin/env bash
# Set everything up, then serve the Voila apps on 127.0.0.1; the gallery is at
# http://127.0.0.1:${PORT:-8866}/voila/render/index.ipynb (printed once the server is up).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh notebooks
exec .venv/bin/tabletop-lab serve --port "${PORT:-8866}"
