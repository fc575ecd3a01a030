#!/usr/bin/env bash
# Mutation testing (slow: not run by CI).  bash scripts/mutation.sh [GROUP...] [--report] [--max-children N]
# Groups and their tests: [tool.mtg-rules-kb.mutation] in pyproject.toml; explained survivors:
# docs/mutation-equivalents.tsv; results: build/mutation/report.md (docs/testing.md says more).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if ! .venv/bin/python -c "import mutmut" 2>/dev/null; then
  echo "mutation: installing mutmut (the project's 'mutation' extra)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[mutation]"
fi
exec nice -n 19 .venv/bin/python scripts/mutation.py "$@"
