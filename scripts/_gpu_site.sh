# Sourced by scripts/gpu_check and scripts/gpu_pretrain: install netlm from this working tree, with the wheels in .whl/
# where this Python lacks them (a lent device machine has no package registry; scripts/gpu_wheels fetches them), into
# a temporary directory $SITE put first on PYTHONPATH (removed at exit). Needs ROOT (the repository) and PYTHON.
SITE=$(mktemp -d "${TMPDIR:-/tmp}/netlm-gpu-site.XXXXXX")
trap 'rm -rf "$SITE"' EXIT
shopt -s nullglob
wheels=("$ROOT"/.whl/*.whl)
# the carried wheels fill in what this Python lacks (a machine that has every one of them needs none)
carried='"grain", "array_record", "duckdb", "tensorboardX", "fastcore", "portpicker"'
lacks="import importlib.util as u, sys; sys.exit(all(u.find_spec(m) for m in ($carried)))"
if (( ${#wheels[@]} )) && "$PYTHON" -c "$lacks"; then
  echo "$(basename "$0"): installing ${#wheels[@]} carried wheels from .whl/ for $("$PYTHON" --version 2>&1)"
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target "$SITE" "${wheels[@]}" \
    || { echo "$(basename "$0"): pip could not install the wheels in .whl/ with $PYTHON (run scripts/gpu_wheels)" >&2
         exit 2; }
fi
if "$PYTHON" -c 'import setuptools' 2>/dev/null; then   # setup.py builds it; no registry is needed
  "$PYTHON" -m pip install -q --no-index --no-deps --no-build-isolation --no-compile --no-cache-dir \
    --target "$SITE" "$ROOT" \
    || { echo "$(basename "$0"): pip could not install netlm from $ROOT with $PYTHON" >&2; exit 2; }
else
  echo "$(basename "$0"): $PYTHON has no setuptools to build netlm with: copying its package directory instead"
  cp -r "$ROOT/netlm" "$SITE/netlm"
fi
# and not the working tree's netlm, which `python -m`/`-c` would find first from the repository root (Python >= 3.11)
export PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}" PYTHONSAFEPATH=1
