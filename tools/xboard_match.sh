#!/usr/bin/env bash
# Plays xq against MaxQi (Fairy-Max's Xiangqi engine) through a real GUI stack: XBoard, with the
# UCI2WB adapter speaking UCCI (-x) or UCI in the Cyclone form (-c) to xq, headless under Xvfb.
# XBoard checks every move, adjudicates mates and repetitions, and writes a PGN and a debug log;
# this script then counts results and looks through the log for illegal moves, time forfeits and
# protocol errors. It exits non-zero if it finds any.
#
# Needs (Debian): apt-get install -y --no-install-recommends xboard uci2wb fairymax xvfb xauth
#
# Usage: tools/xboard_match.sh [ucci|cyclone]...     (default: both)
# Environment: GAMES (10), TC (XBoard time options, default "-tc 0:10 -inc 0"),
#              PONDER (false; true lets both engines think on the opponent's time),
#              XQ (engine binary; default: build target/release/xq), OUT (target/xboard),
#              OPTIONS (engine options for xq, "Name=value,Name=value", e.g. "Skill Level=0";
#              UCI names in cyclone mode).
# Not run by CI: it takes minutes and needs the packages above.
set -u

GAMES=${GAMES:-10}
TC=${TC:--tc 0:10 -inc 0}
PONDER=${PONDER:-false}
OUT=${OUT:-target/xboard}
MODES=("$@")
[ ${#MODES[@]} -eq 0 ] && MODES=(ucci cyclone)

for tool in /usr/games/xboard /usr/games/uci2wb /usr/games/maxqi xvfb-run; do
    if ! command -v "$tool" >/dev/null; then
        echo "missing $tool; install: apt-get install -y xboard uci2wb fairymax xvfb xauth" >&2
        exit 2
    fi
done

if [ -z "${XQ:-}" ]; then
    cargo build --release --quiet || exit 2
    XQ=$PWD/target/release/xq
fi
case $XQ in /*) ;; *) XQ=$PWD/$XQ ;; esac
# UCI2WB splits its engine command at spaces.
case $XQ in *" "*) echo "the path of xq must not contain spaces: $XQ" >&2; exit 2 ;; esac

status=0
for mode in "${MODES[@]}"; do
    case $mode in
        ucci) flag=-x ;;
        cyclone) flag=-c ;;
        *) echo "unknown mode $mode (ucci or cyclone)" >&2; exit 2 ;;
    esac
    dir=$OUT/$mode
    mkdir -p "$dir"
    rm -f "$dir/match.pgn" "$dir/xboard.debug" "$dir/xboard.out"
    echo "== $mode: $GAMES games, xq via uci2wb $flag against maxqi, $TC, ponder $PONDER"
    start=$(date +%s)
    # shellcheck disable=SC2086 # TC holds several options
    (cd "$dir" && timeout $((GAMES * 120 + 60)) xvfb-run -a /usr/games/xboard -noGUI \
        -popupExitMessage false -soundProgram /bin/true -variant xiangqi \
        -fcp "/usr/games/uci2wb debug -var xiangqi $flag $XQ" ${OPTIONS:+-firstOptions "$OPTIONS"} \
        -scp /usr/games/maxqi \
        -mm -mg "$GAMES" $TC -ponderNextMove "$PONDER" -autoCallFlag true \
        -testClaims true -checkMates true -repeatsToDraw 3 \
        -sgf match.pgn -debug -nameOfDebugFile xboard.debug >xboard.out 2>&1)
    rc=$?
    took=$(($(date +%s) - start))
    pgn=$dir/match.pgn
    log=$dir/xboard.debug
    if [ ! -s "$pgn" ]; then
        echo "no games recorded (xboard exit $rc); see $dir/xboard.out" >&2
        status=1
        continue
    fi
    # Results from xq's side, and how the games ended.
    awk '
        /^\[White / { white = $0 }
        /^\[Result / {
            r = $2; gsub(/[]"]/, "", r); xq_red = (white ~ /xq/)
            if (r == "1/2-1/2") d++
            else if ((r == "1-0") == xq_red) w++
            else if (r == "1-0" || r == "0-1") l++
            n++
        }
        /^\{.*\} *(1-0|0-1|1\/2-1\/2|\*) *$/ { sub(/^\{/, ""); sub(/\}.*/, ""); reason[$0]++ }
        END {
            printf "games %d: xq won %d, drew %d, lost %d\n", n, w, d, l
            for (k in reason) printf "  %3d x %s\n", reason[k], k
        }' "$pgn"
    played=$(grep -c '^\[Result ' "$pgn")
    # Problems: illegal moves, time forfeits, and anything in the engine traffic that is an error.
    # UCI2WB answers the CECP commands black/white with "Error (unknown command)" and MaxQi does so
    # for cores/computer: that is adapter and opponent chatter, not xq's traffic. UCI2WB 4.1 also
    # prints "Error (unknown command): " with no command when its command queue gets one wake-up
    # too many, mostly at the start of a game; a control run with Fairy-Stockfish in xq's place
    # shows the same lines, so they are not counted either.
    illegal=$(grep -ci 'illegal move' "$log")
    forfeit=$(grep -ciE 'on time|time forfeit|flag fell|forfeits' "$pgn" "$log" | awk -F: '{s += $NF} END {print s + 0}')
    protocol=$(grep -E '^[0-9]+ <first : ' "$log" |
        grep -E 'engine said: (info (message|string)|nobestmove)|UCI violation|died|tellusererror|Error' |
        grep -vcE 'Error \(unknown command\): ?(black|white)?$')
    echo "time $took s; problems in $log: $illegal illegal-move lines, $forfeit time-forfeit lines, $protocol protocol-error lines"
    if [ "$protocol" -gt 0 ]; then
        grep -E '^[0-9]+ <first : ' "$log" |
            grep -E 'engine said: (info (message|string)|nobestmove)|UCI violation|died|tellusererror|Error' |
            grep -vE 'Error \(unknown command\): ?(black|white)?$' | sort | uniq -c | sort -rn | head -10
    fi
    if [ "$played" -ne "$GAMES" ] || [ "$illegal" -gt 0 ] || [ "$forfeit" -gt 0 ] || [ "$protocol" -gt 0 ]; then
        status=1
    fi
done
exit $status
