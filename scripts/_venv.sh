# Sourced by scripts/test and scripts/quickstart: make .venv and install netlm with its dev extras
# into it when it is missing or when setup.py / settings.ini changed since the last install.
set -euo pipefail
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "netlm needs Python >= 3.10 (found: $("$PYTHON" --version 2>&1)); set PYTHON=/path/to/python3.x" >&2; exit 2
fi
if [ ! -x .venv/bin/python ]; then
  echo "creating .venv with $("$PYTHON" --version)"
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.netlm-installed
if [ ! -f "$stamp" ] || [ setup.py -nt "$stamp" ] || [ settings.ini -nt "$stamp" ]; then
  echo "installing netlm and its dependencies into .venv (first run: a few minutes)"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[dev]"
  touch "$stamp"
fi
export PATH="$PWD/.venv/bin:$PATH"
