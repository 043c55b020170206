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
# A ```text output block that is the next fenced block after a block to run is what that block
# prints (standard output and error together), compared line by line, times and rates aside:
#
#     ```sh run
#     xq referee --repetitions 2 docs/examples/perpetual-check.pgn
#     ```
#     ```text output
#     docs/examples/perpetual-check.pgn game 1 (line 1): WXF case 3, manual diagram 1
#     ...
#     ```
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
    in_block=   # the language of the block to run being read
    in_output=  # reading the output block of block $n
    in_other=   # inside another fenced block
    pending=    # the block just run, whose output block may come next
    while IFS= read -r line || [ -n "$line" ]; do
        line_no=$((line_no + 1))
        closing=
        [[ $line =~ ^\`\`\`[[:space:]]*$ ]] && closing=1
        if [ -n "$in_block" ]; then
            if [ -n "$closing" ]; then
                in_block=
                pending=$n
            else
                printf '%s\n' "$line" >>"$work/block$n"
            fi
        elif [ -n "$in_output" ]; then
            if [ -n "$closing" ]; then
                in_output=
            else
                printf '%s\n' "$line" >>"$work/expect$n"
            fi
        elif [ -n "$in_other" ]; then
            [ -n "$closing" ] && in_other=
        elif [[ $line =~ ^\`\`\`(sh|python)[[:space:]]+run[[:space:]]*$ ]]; then
            n=$((n + 1))
            in_block=${BASH_REMATCH[1]}
            pending=
            printf '%s %s %s\n' "$doc" "$line_no" "$in_block" >>"$work/index"
            : >"$work/block$n"
        elif [[ $line =~ ^\`\`\`text[[:space:]]+output[[:space:]]*$ ]]; then
            if [ -z "$pending" ]; then
                echo "$doc:$line_no: an output block with no block to run before it" >&2
                exit 1
            fi
            in_output=1
            pending=
            : >"$work/expect$n"
        elif [[ $line =~ ^\`\`\` ]]; then
            in_other=1
            pending=
        fi
    done <"$doc"
    if [ -n "$in_block$in_output$in_other" ]; then
        echo "$doc: a fenced block is not closed" >&2
        exit 1
    fi
done

# Output with what changes from run to run (the time a run took, its rate) written the same way.
steady() {
    sed -E 's/[0-9.]+ s \([0-9]+ games\/s\)/T s (R games\/s)/; s/用时[0-9.]+秒（每秒[0-9]+局）/用时T秒（每秒R局）/'
}

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
    # An output block shown under the block must be what it prints, its times and rates aside.
    if [ "$status" -eq 0 ] && [ -f "$work/expect$i" ] &&
        ! diff -u <(steady <"$work/expect$i") <(steady <"$out") >"$work/diff$i"; then
        failed=$((failed + 1))
        {
            echo "FAIL  $doc:$start ($lang): its output is not the output block shown under it"
            cat "$work/diff$i"
            echo "---"
        } >&2
    elif [ "$status" -eq 0 ]; then
        echo "ok    $doc:$start ($lang)$([ -f "$work/expect$i" ] && echo ', output as shown')"
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
