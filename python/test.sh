#!/usr/bin/env bash
# The Python module's tests (docs/python.md): a virtual environment in
# target/python/venv with maturin, pytest and sgfmill from PyPI; the wheel
# built with `maturin build --release` into target/python (a target folder
# of its own, so that target/release/smallgo stays the plain binary) and
# installed; then pytest on python/tests, which compares the module's
# answers with target/release/smallgo's (built here if it is not).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
venv=target/python/venv

if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  'maturin>=1.5,<2' 'pytest>=7' 'sgfmill>=1.1'

cargo build --release
rm -rf target/python/wheels
CARGO_TARGET_DIR="$root/target/python" "$venv/bin/maturin" build --release \
  --manifest-path python/Cargo.toml --interpreter "$venv/bin/python" --out target/python/wheels
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --force-reinstall --no-deps target/python/wheels/smallgo-*.whl

# From the repository's root, where no folder is named smallgo: the module
# imported is the installed wheel (a test checks it).
SMALLGO="$root/target/release/smallgo" "$venv/bin/python" -m pytest -p no:cacheprovider \
  python/tests "$@"
