#!/usr/bin/env bash
# Main job: set up, build the knowledge base from data/ and serve it in Datasette on 127.0.0.1.
# Extra arguments go to `kb serve` (e.g. ./run.sh --port 8080).
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
.venv/bin/kb build
exec .venv/bin/kb serve "$@"
