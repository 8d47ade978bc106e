#!/usr/bin/env sh
# Rebuilds the shipped tables (every board of at most 16 points, plain and
# circular) with the smallgo in this repository, and their manifest. Run from
# the repository root: sh tablebases/rebuild.sh
# Plain boards with more rows than columns play from their turned tables;
# circular boards of one or two columns play from their plain boards' tables.
set -eu
cargo build --release
for board in 1x1 1x2 1x3 1x4 1x5 1x6 1x7 1x8 1x9 1x10 1x11 1x12 1x13 1x14 1x15 1x16 \
             2x2 2x3 2x4 2x5 2x6 2x7 2x8 \
             3x3 3x4 3x5 \
             4x4 \
             1x3c 1x4c 1x5c 1x6c 1x7c 1x8c 1x9c 1x10c 1x11c 1x12c 1x13c 1x14c 1x15c 1x16c \
             2x3c 2x4c 2x5c 2x6c 2x7c 2x8c \
             3x3c 3x4c 3x5c \
             4x3c 4x4c \
             5x3c; do
    ./target/release/smallgo --build "$board" --tables tablebases
done
