#!/usr/bin/env bash
# Set up and run the static checks: ruff (lint, import order, complexity) and mypy (types).
# Configuration: [tool.ruff] and [tool.mypy] in pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup.sh
status=0
echo "ruff: ingest kb engine tests"
.venv/bin/ruff check ingest kb engine tests || status=1
echo "mypy: ingest kb engine"
.venv/bin/mypy || status=1
exit $status
