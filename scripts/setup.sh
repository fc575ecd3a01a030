#!/usr/bin/env bash
# Create .venv and install the project with its test extras (skipped when pyproject.toml is unchanged).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv with $($PY --version)"
  $PY -m venv .venv
fi
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  echo "setup: installing dependencies into .venv (first run takes a minute)"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
# simplemma decodes its compressed dictionaries on first use in every process (German: over a second);
# keep a decoded copy beside the packages (kb/lemmas.py looks words up in it: same entries, no load), and the
# rules of spaCy's tokenizers that kb/lemmas.py cuts words with (so that a build need not import spaCy).
.venv/bin/python -m kb.lemmas
# The project is installed editable, so pip compiled none of its modules; every `kb` process imports some
# 170 of them, and where the environment forbids writing bytecode (PYTHONDONTWRITEBYTECODE) it compiled them
# all again each time (a third of a second per build). Compile them once here (a changed module's stale
# bytecode is ignored by Python, which compiles that module again).
.venv/bin/python -m compileall -q -j 0 ingest kb engine
# The browser tests drive Debian's Chromium through Playwright (a driver's own browser download cannot
# reach its servers here): install it from Debian's packages when it is missing.
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: installing Debian's chromium for the browser tests"
  SUDO=""
  if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
fi
