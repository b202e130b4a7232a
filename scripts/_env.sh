# Shared by scripts/start and scripts/test: make .venv and install hexclass into it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
# Reinstall only when pyproject.toml changed since the last install.
stamp=.venv/.hexclass-installed
extras="${HEXCLASS_EXTRAS:-}"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)${extras}"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  if [ -n "$extras" ]; then
    .venv/bin/python -m pip install -q -e ".[${extras}]"
  else
    .venv/bin/python -m pip install -q -e .
  fi
  echo "$want" > "$stamp"
fi
