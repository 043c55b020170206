#!/usr/bin/env bash
# Builds the chessdb repetition oracle for tools/referee_vs_chessdb.py outside the checkout:
# main.cpp (this folder) linked with chessdb's public-domain Xiangqi board code
# (extensions/ccboard/xiangqi.cpp and xiangqi.h of github.com/noobpwnftw/chessdb), which stays
# out of this repository. Usage: tools/chessdb_oracle/build.sh [OUT_DIR] (default ../chessdb-oracle,
# beside the checkout). The sources come from $CHESSDB_REPO (a chessdb git directory) if set, else
# from a shallow clone into OUT_DIR/chessdb-src. Prints the oracle's path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:-$root/../chessdb-oracle}"
mkdir -p "$out/chessdb"
out="$(cd "$out" && pwd)"
case "$out/" in
"$root"/*) echo "build.sh: OUT_DIR must lie outside the repository" >&2; exit 2 ;;
esac
if [ ! -f "$out/chessdb/xiangqi.cpp" ] || [ ! -f "$out/chessdb/xiangqi.h" ]; then
    repo="${CHESSDB_REPO:-}"
    if [ -z "$repo" ]; then
        [ -d "$out/chessdb-src/.git" ] ||
            git clone --quiet --depth 1 https://github.com/noobpwnftw/chessdb "$out/chessdb-src"
        repo="$out/chessdb-src/.git"
    fi
    for f in xiangqi.cpp xiangqi.h; do
        git --git-dir="$repo" show "HEAD:extensions/ccboard/$f" >"$out/chessdb/$f"
    done
    git --git-dir="$repo" rev-parse HEAD >"$out/chessdb/COMMIT"
fi
cp "$here/main.cpp" "$out/main.cpp"
# xiangqi.cpp uses the 'register' keyword: C++14, not 17.
"${CXX:-g++}" -std=gnu++14 -O2 -w -I"$out/chessdb" -o "$out/oracle" "$out/main.cpp" "$out/chessdb/xiangqi.cpp"
echo "$out/oracle (chessdb $(cat "$out/chessdb/COMMIT"))"
