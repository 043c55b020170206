#!/usr/bin/env bash
# Runs the examples of README.md and docs/*.md, so that the documentation cannot drift from the
# program, and checks that every relative link in them names a file of the repository.
#
# A fenced block runs when its info string is `sh run` or `python run`:
#
#     ```sh run
#     xq referee --repetitions 2 docs/examples/perpetual-check.pgn | grep 'perpetual check' >/dev/null
#     ```
#
# (Not `| grep -q`: grep would stop reading at the first match, the writer would fail on the closed
# pipe, and pipefail would fail the block.)
#
# Plain ```sh (or ```python) blocks are shown to the reader and never run: examples that need
# data outside the repository (../shared), the network, or minutes of a machine's time.
#
# Each `sh run` block runs with `bash -euo pipefail` from the repository root, with `xq` on PATH
# meaning the freshly built target/release/xq, and must exit 0 within BLOCK_TIMEOUT seconds. A
# block that starts a server or an engine in the background must end it itself (a trap on EXIT).
# `python run` blocks run with the virtual environment tools/python_test.sh makes
# (target/python-venv); without it they fail, saying so. Blocks must use only files of the
# repository (tests/data/, wxf_cases/, docs/examples/, tools/openings.txt), and no network but
# loopback (curl is installed with apt-get when it is missing).
#
# Every block is run, failed or not; a failure prints the file, the line its block starts on, the
# block and its output. The run ends with "N blocks run, M failed" and fails if any did.
# Environment: XQ (a built xq binary to use instead of building), BLOCK_TIMEOUT (120).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

XQ=${XQ:-}
BLOCK_TIMEOUT=${BLOCK_TIMEOUT:-120}
VENV_PYTHON=$root/target/python-venv/bin/python

# The examples of the HTTP API call it with curl.
if ! command -v curl >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl
    else
        echo "curl missing and no apt-get to install it with" >&2
        exit 1
    fi
fi

# Built afresh unless XQ names a binary, so that the examples run against the code of the checkout
# (cargo has nothing to do when the build is up to date).
if [ -z "$XQ" ]; then
    XQ=${CARGO_TARGET_DIR:-target}/release/xq
    if command -v cargo >/dev/null 2>&1 || [ ! -x "$XQ" ]; then
        cargo build --release
    fi
fi
XQ=$(realpath "$XQ")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
ln -s "$XQ" "$work/bin/xq"
export PATH="$work/bin:$PATH"

docs=(README.md docs/*.md)

# The blocks to run, one file each, with a line "FILE LINE LANG" in the index.
: >"$work/index"
n=0
for doc in "${docs[@]}"; do
    line_no=0
    in_block=
    while IFS= read -r line || [ -n "$line" ]; do
        line_no=$((line_no + 1))
        if [ -z "$in_block" ]; then
            if [[ $line =~ ^\`\`\`(sh|python)[[:space:]]+run[[:space:]]*$ ]]; then
                n=$((n + 1))
                in_block=${BASH_REMATCH[1]}
                printf '%s %s %s\n' "$doc" "$line_no" "$in_block" >>"$work/index"
                : >"$work/block$n"
            fi
        elif [[ $line =~ ^\`\`\`[[:space:]]*$ ]]; then
            in_block=
        else
            printf '%s\n' "$line" >>"$work/block$n"
        fi
    done <"$doc"
    if [ -n "$in_block" ]; then
        echo "$doc: a block to run is not closed" >&2
        exit 1
    fi
done

failed=0
i=0
while read -r doc start lang; do
    i=$((i + 1))
    block=$work/block$i
    out=$work/out$i
    status=0
    case $lang in
    sh)
        timeout --kill-after=5 "$BLOCK_TIMEOUT" bash -euo pipefail "$block" </dev/null >"$out" 2>&1 ||
            status=$?
        ;;
    python)
        if [ -x "$VENV_PYTHON" ]; then
            timeout --kill-after=5 "$BLOCK_TIMEOUT" "$VENV_PYTHON" "$block" </dev/null >"$out" 2>&1 ||
                status=$?
        else
            echo "no $VENV_PYTHON to run Python examples with: run tools/python_test.sh first" >"$out"
            status=1
        fi
        ;;
    esac
    if [ "$status" -eq 0 ]; then
        echo "ok    $doc:$start ($lang)"
    else
        failed=$((failed + 1))
        {
            echo "FAIL  $doc:$start ($lang), exit status $status$([ "$status" -eq 124 ] && echo ", past ${BLOCK_TIMEOUT} s")"
            echo "--- the block"
            cat "$block"
            echo "--- its output"
            cat "$out"
            echo "---"
        } >&2
    fi
done <"$work/index"

# Relative links: [text](path) and [text](path#anchor) must name a file or folder that exists.
bad_links=0
for doc in "${docs[@]}"; do
    dir=$(dirname "$doc")
    while IFS= read -r target; do
        path=${target%%#*}
        [ -z "$path" ] && continue
        case $path in
        http://* | https://* | mailto:*) continue ;;
        esac
        if [ ! -e "$dir/$path" ]; then
            echo "BROKEN LINK  $doc: ($target) names no file" >&2
            bad_links=$((bad_links + 1))
        fi
    done < <(grep -o '\](\([^)]*\))' "$doc" | sed 's/^](\(.*\))$/\1/' || true)
done

echo "$n blocks run, $failed failed; $bad_links broken links"
[ "$failed" -eq 0 ] && [ "$bad_links" -eq 0 ]
