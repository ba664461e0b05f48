#!/usr/bin/env bash
# pocketfen against the newest peer (issue 37): shakmaty 0.30.2 + pgn-reader 0.29.1,
# built with the nightly toolchain in a crate of its own (benches/peer-newest), run in the
# same run as pocketfen, whole processes on one core, CPU seconds (user + system), the
# median of ROUNDS alternating runs:
#
#     benches/newest.sh [ROUNDS]        # default 5
#
# Rows: SAN parse + resolve and SAN writing (in process, the best of 5 passes each side:
# examples/san_speed.rs and the peer's `san`, on the same moves of the samples);
# validate on the samples' standard, crazyhouse and horde games repeated to 100 MB,
# and on Lichess games with a clock on every move repeated to 100 MB; pgn-reader's parse
# alone (the ceiling: pocketfen's validate as a share of it); perft from the start (depth
# 6) and from a crazyhouse middlegame (depth 5); pocketfen's pgn convert and pgn select
# by a tag against its own validate. Each row prints its target. Without `cargo +nightly`
# the peer's rows say so and pocketfen's own rows still run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-5}
DATA=target/bench-data
mkdir -p "$DATA"

cargo build --release --quiet
cargo build --release --quiet --example san_speed
POCKETFEN=target/release/pocketfen
PEER=benches/peer-newest/target/release/pocketfen-peer-newest
if cargo +nightly --version >/dev/null 2>&1; then
    cargo +nightly build --release --quiet --manifest-path benches/peer-newest/Cargo.toml
else
    echo "no nightly toolchain (rustup toolchain install nightly): the newest peer is not built; its rows are left out" >&2
    PEER=
fi

# The archives: copies of the samples up to 100 MB.
fill() { # OUT FILE...
    local out=$1; shift
    if [ -s "$out" ] && [ "$(stat -c %s "$out")" -ge 100000000 ]; then return; fi
    : > "$out"
    while [ "$(stat -c %s "$out")" -lt 100000000 ]; do
        for f in "$@"; do cat "$f"; printf '\n\n'; done >> "$out"
    done
}
MIX=$DATA/newest-mix-100mb.pgn
CLK=$DATA/newest-clk-100mb.pgn
fill "$MIX" samples/lichess_standard_2025-05_sample438.pgn \
    samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn samples/lichess_zh_2018_JannLee-CrazyAra.pgn \
    samples/lichess_zh_2017_knightvuillaume-JannLee.pgn samples/lichess_horde_2022_Daymon_Rivera-pripredi.pgn
fill "$CLK" samples/lichess_standard_2025-05_sample438.pgn
ZH_FEN='r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1'

# CPU seconds of one run of a command (its output thrown away).
TIMES=$(mktemp)
trap 'rm -f "$TIMES"' EXIT
cpu() {
    /usr/bin/time -f '%U %S' -o "$TIMES" "$@" >/dev/null 2>&1 || true
    awk 'END { printf "%.3f", $1 + $2 }' "$TIMES"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# pair NAME_A NAME_B -- A... -- B...: ROUNDS alternating runs; prints "A B" medians.
pair() {
    local a=() b=() in_b=0 x
    shift 2
    for x in "$@"; do
        if [ "$x" = "--" ]; then in_b=$((in_b + 1)); continue; fi
        if [ $in_b -le 1 ]; then a+=("$x"); else b+=("$x"); fi
    done
    local ta=() tb=()
    for _ in $(seq "$ROUNDS"); do
        ta+=("$(cpu "${a[@]}")")
        tb+=("$(cpu "${b[@]}")")
    done
    echo "$(printf '%s\n' "${ta[@]}" | median) $(printf '%s\n' "${tb[@]}" | median)"
}

row() { # WORK A_NAME A B_NAME B TARGET KIND: KIND ratio = B/A (A faster when > 1)
    awk -v w="$1" -v an="$2" -v a="$3" -v bn="$4" -v b="$5" -v t="$6" 'BEGIN {
        if (a <= 0) { printf "| %s | no time measured |\n", w; exit }
        r = b / a; met = (r >= t) ? "met" : "not met";
        printf "| %s | %s %.4g s | %s %.4g s | %.2f × | ≥ %s × (%s) |\n", w, an, a, bn, b, r, t, met }'
}

echo "benches/newest.sh: $(date -u +%F), $(nproc) cores, median of $ROUNDS rounds, CPU seconds"
echo
echo "| work | pocketfen | peer | ratio | target |"
echo "| --- | --- | --- | --- | --- |"
V="$POCKETFEN validate -q -j 1"
if [ -n "$PEER" ]; then
    SANS=(samples/lichess_standard_2025-05_sample438.pgn samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn
        samples/lichess_zh_2018_JannLee-CrazyAra.pgn samples/lichess_zh_2017_knightvuillaume-JannLee.pgn)
    ours=$(target/release/examples/san_speed "${SANS[@]}")
    theirs=$("$PEER" san "${SANS[@]}")
    for task in san-parse san-write; do
        a=$(awk -v t=$task '$1 == t { print $2 }' <<<"$ours")
        b=$(awk -v t=$task '$1 == t { print $2 }' <<<"$theirs")
        n=$(awk -v t=$task '$1 == t { print $3 }' <<<"$ours")
        m=$(awk -v t=$task '$1 == t { print $3 }' <<<"$theirs")
        [ "$n" = "$m" ] || echo "warning: $task: pocketfen has $n moves, the peer $m" >&2
        case $task in
            san-parse) row "SAN parse + resolve, $n moves" pocketfen "$a" "shakmaty 0.30.2" "$b" 1.3 ;;
            san-write) row "SAN writing, $n moves" pocketfen "$a" "shakmaty 0.30.2" "$b" 1.0 ;;
        esac
    done
    read -r a b < <(pair x y -- $V "$MIX" -- "$PEER" validate "$MIX")
    row "validate, mixed 100 MB" pocketfen "$a" "shakmaty 0.30.2" "$b" 1.5
    read -r a b < <(pair x y -- $V "$CLK" -- "$PEER" validate "$CLK")
    row "validate, Lichess games with clocks" pocketfen "$a" "shakmaty 0.30.2" "$b" 1.5
    read -r a b < <(pair x y -- $V "$MIX" -- "$PEER" parse "$MIX")
    row "validate against pgn-reader's parse alone" pocketfen "$a" "pgn-reader 0.29.1 parse" "$b" 0.45
    read -r a b < <(pair x y -- "$POCKETFEN" perft 6 -- "$PEER" perft 6)
    row "perft, start, depth 6" pocketfen "$a" "shakmaty 0.30.2" "$b" 1.5
    read -r a b < <(pair x y -- "$POCKETFEN" perft 5 "$ZH_FEN" -- "$PEER" perft 5 "$ZH_FEN")
    row "perft, crazyhouse middlegame, depth 5" pocketfen "$a" "shakmaty 0.30.2" "$b" 1.5
fi
read -r a b < <(pair x y -- "$POCKETFEN" pgn convert -q -j 1 --to lichess -o /dev/null "$MIX" -- $V "$MIX")
row "pgn convert against validate" "pgn convert" "$a" validate "$b" 0.75
read -r a b < <(pair x y -- "$POCKETFEN" pgn select -q -j 1 --tag 'WhiteElo>=2000' -o /dev/null "$MIX" -- $V "$MIX")
row "pgn select by a tag against validate" "pgn select" "$a" validate "$b" 2
