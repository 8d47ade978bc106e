#!/usr/bin/env sh
# Rebuilds the shipped tables (every board of at most 16 points) with the
# smallgo in this repository, and their manifest. Run from the repository
# root: sh tablebases/rebuild.sh
set -eu
cargo build --release
for board in 1x1 1x2 1x3 1x4 1x5 1x6 1x7 1x8 1x9 1x10 1x11 1x12 1x13 1x14 1x15 1x16 \
             2x2 2x3 2x4 2x5 2x6 2x7 2x8 \
             3x3 3x4 3x5 \
             4x4; do
    ./target/release/smallgo --build "$board" --tables tablebases
done
