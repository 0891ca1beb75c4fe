#!/usr/bin/env bash
# Set everything up, then serve the gallery of Voila apps on http://127.0.0.1:${PORT:-8866}/
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh notebooks
exec .venv/bin/tabletop-lab serve --port "${PORT:-8866}"
