#!/usr/bin/env bash
# Compares what two builds of `xq referee` write, byte for byte, on the shared master games, the
# test games and the 173 WXF cases as PGN: text, --json and --html, at 3 and 2 occurrences, and
# the cases with --first-decision. Timing figures in the summary lines are left out of the
# comparison. Prints the files that differ, or "identical"; exit 1 when any differ.
# Usage: tools/referee_outputs.sh OLD_XQ NEW_XQ [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."

old=$(realpath "$1")
new=$(realpath "$2")
out=${3:-$(mktemp -d)}
shared=../shared/games
mkdir -p "$out"

# The cases, one PGN game each: the FEN tag and the moves.
python3 - "$out/cases.pgn" <<'PY'
import csv, sys
with open(sys.argv[1], "w") as out:
    for row in csv.DictReader(open("wxf_cases/cases.tsv"), delimiter="\t"):
        out.write('[Event "case %s"]\n[FEN "%s"]\n[SetUp "1"]\n\n%s *\n\n'
                  % (row["case"], row["fen"].strip(), row["moves"].strip()))
PY

write() {
    local xq=$1 dir=$2
    mkdir -p "$dir"
    for name in shared tests; do
        local games=$shared
        [ "$name" = tests ] && games=tests/data/games
        [ -d "$games" ] || continue
        "$xq" referee --threads 2 "$games" >"$dir/$name.txt" 2>"$dir/$name.err" || true
        "$xq" referee --threads 2 --json "$games" >"$dir/$name.json" 2>>"$dir/$name.err" || true
        "$xq" referee --threads 2 --html "$dir/$name.html" "$games" >/dev/null 2>>"$dir/$name.err" || true
        "$xq" referee --threads 2 --repetitions 2 --json "$games" >"$dir/$name-2.json" 2>>"$dir/$name.err" || true
    done
    local cases=$out/cases.pgn
    "$xq" referee --repetitions 2 "$cases" >"$dir/cases.txt" 2>"$dir/cases.err" || true
    "$xq" referee --repetitions 2 --json "$cases" >"$dir/cases.json" 2>>"$dir/cases.err" || true
    "$xq" referee --repetitions 2 --html "$dir/cases.html" "$cases" >/dev/null 2>>"$dir/cases.err" || true
    "$xq" referee --repetitions 2 --first-decision "$cases" >"$dir/cases-first.txt" 2>>"$dir/cases.err" || true
    "$xq" referee --repetitions 2 --first-decision --json "$cases" >"$dir/cases-first.json" 2>>"$dir/cases.err" || true
}

write "$old" "$out/old"
write "$new" "$out/new"
status=0
for file in "$out/old"/*; do
    name=$(basename "$file")
    untimed() { sed -E 's/plies in [0-9.]+ s \([0-9]+ games\/s\)//' "$1"; }
    if ! cmp -s <(untimed "$file") <(untimed "$out/new/$name"); then
        echo "differs: $name"
        status=1
    fi
done
[ $status = 0 ] && echo "identical ($(ls "$out/old" | wc -l) outputs in $out)"
exit $status
