#!/usr/bin/env bash
# Installs what the tests need and runs them all: the command the README
# names, and what CI runs (.ci/run calls this script).
#
# - GNU Go is the opponent of the match tests (tests/matches.rs) and runs the
#   GNU Go-style regression suite beside smallgo (tests/gtp_regress.rs).
# - Open MPI (libopenmpi-dev, openmpi-bin) runs the MPI build's tests
#   (tests/mpi.rs, the integration tests' module `mpi`); rsmpi generates
#   its bindings with libclang, pinned to Debian 12's LLVM 14 (rsmpi 0.8's
#   bindgen is known to break with libclang 22, so the version is named
#   rather than left to the libclang-dev metapackage).
# - Chromium and node run the page's test in a real browser (tests/serve.rs,
#   tests/browser/play.mjs): node drives headless Chromium through
#   puppeteer-core, which npm installs into target/browser (no browser
#   download: the system's Chromium is used). npm comes with Debian's
#   nodejs as the package npm; a nodejs that brings its own npm (and
#   conflicts with Debian's) is left as it is.
# - Python with venv runs KaTrain's own engine client against
#   `smallgo analysis` (tests/katago_analysis.rs, tests/katrain/engine.py):
#   the test installs KaTrain from PyPI into a fresh venv. The same
#   packages build and test the Python module (python/test.sh: maturin,
#   pytest and sgfmill from PyPI into a venv in target/python; PyO3's
#   abi3 needs no Python headers).
#
# As root the packages are installed with apt-get; otherwise the script
# checks they are there and names the missing ones. `--no-install` skips
# that step. The MPI build goes to its own target folder (target/mpi), and
# the HTTP server's and the review plot's (features `serve`, `plot`) to target/serve, so that
# target/release/smallgo stays the plain binary, linked to no MPI library:
# the last step checks it.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(gnugo libopenmpi-dev openmpi-bin libclang-14-dev chromium nodejs python3 python3-venv)
install=yes
for argument in "$@"; do
  case "$argument" in
    --no-install) install=no ;;
    *) echo "scripts/test.sh: unknown argument '$argument' (the only one is --no-install)" >&2; exit 2 ;;
  esac
done

if [ "$install" = yes ]; then
  missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  command -v npm >/dev/null || missing+=(npm)
  if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
      export DEBIAN_FRONTEND=noninteractive
      apt-get update
      apt-get install -y "${missing[@]}"
    else
      echo "scripts/test.sh: missing packages: ${missing[*]}" >&2
      echo "  install them with: sudo apt-get install -y ${missing[*]}" >&2
      exit 2
    fi
  fi
fi

export LIBCLANG_PATH=${LIBCLANG_PATH:-/usr/lib/llvm-14/lib}
cargo --version

# The unit, integration (one binary, tests/tests.rs) and doc tests with the
# default features.
cargo test --release
# The probe-only library (no solver, no command line): its doc tests probe
# a built-in table.
cargo test --release --no-default-features --doc
# The MPI build's tests (the integration tests' module `mpi`), in a target
# folder of their own.
cargo test --release --features mpi --target-dir target/mpi --test integration mpi::
# puppeteer-core for the page's test in headless Chromium, into a folder of
# target/ (tests/serve.rs names the same version when it is missing).
puppeteer=puppeteer-core@24.43.1
installed=target/browser/node_modules/puppeteer-core/package.json
if ! { [ -f "$installed" ] && grep -q '"version": "24.43.1"' "$installed"; }; then
  npm install --no-save --no-audit --no-fund --prefix target/browser "$puppeteer"
fi
# The HTTP server's tests (feature `serve`: the integration tests' module
# `serve`, among them the page's test in headless Chromium, and its unit
# tests) and the review's (feature `plot`: the score graph), in a target
# folder of their own too.
cargo test --release --features serve,plot --target-dir target/serve --lib --test integration -- serve:: review::
# The Python module (python/, docs/python.md): its wheel built with maturin
# into target/python, installed in a venv and tested with pytest against
# target/release/smallgo.
bash python/test.sh

# The binary the README names must need no MPI library.
binary=target/release/smallgo
if [ ! -x "$binary" ]; then
  echo "scripts/test.sh: $binary was not built" >&2
  exit 1
fi
if ldd "$binary" | grep -q libmpi; then
  echo "scripts/test.sh: $binary is linked to an MPI library:" >&2
  ldd "$binary" | grep libmpi >&2
  exit 1
fi
echo "scripts/test.sh: $binary links no MPI library"
