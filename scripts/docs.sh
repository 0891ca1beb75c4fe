#!/usr/bin/env bash
# Build the documentation site into site/ and serve it on http://127.0.0.1:${PORT:-8000}.
# The notebooks are executed in quick mode first (TABLETOP_DOCS_EXECUTE=false skips that: they
# then show their code and prose only); warnings fail the build, as in the test command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh notebooks,docs
export TABLETOP_QUICK=1
export TABLETOP_DOCS_EXECUTE="${TABLETOP_DOCS_EXECUTE:-true}"
.venv/bin/mkdocs build --strict
echo "tabletop_lab docs: http://127.0.0.1:${PORT:-8000}/index.html"
exec .venv/bin/python -m http.server "${PORT:-8000}" --bind 127.0.0.1 --directory site
