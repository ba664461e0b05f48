#!/usr/bin/env bash
# What naming openings costs (issue 36): `pgn convert --to lichess` against the same with
# `--add-tags eco,opening`, one job, on COPIES (default 40) copies of the bundled 438-game
# Lichess sample (standard games with clocks: about 40 MB). Whole processes, user+system
# CPU seconds, the two commands alternating, ROUNDS rounds (default 5); prints each
# command's median and the ratio (the target: naming adds at most 10 %). Then the
# instruction counts (callgrind, when valgrind is there) on one copy, which show the
# one-time cost of replaying the list apart from the per-game cost.
#
#   benches/openings.sh [COPIES] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-40}
rounds=${2:-5}
dir=target/bench-data/openings
mkdir -p "$dir"
cargo build --release -q
bin=target/release/pocketfen
sample=samples/lichess_standard_2025-05_sample438.pgn
data="$dir/standard-x$copies.pgn"
if [ ! -s "$data" ]; then
  for _ in $(seq "$copies"); do cat "$sample"; echo; done >"$data"
fi

cpu() { # user+system CPU seconds of one run
  /usr/bin/time -o "$dir/time" -f '%U %S' "$bin" "$@" >/dev/null 2>&1
  awk '{print $1 + $2}' "$dir/time"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

plain=() named=()
for _ in $(seq "$rounds"); do
  plain+=("$(cpu pgn convert -q -j 1 --to lichess -o /dev/null "$data")")
  named+=("$(cpu pgn convert -q -j 1 --to lichess --add-tags eco,opening -o /dev/null "$data")")
done
p=$(printf '%s\n' "${plain[@]}" | median)
n=$(printf '%s\n' "${named[@]}" | median)
echo "pgn convert                         $p s  (CPU, median of $rounds, $(du -m "$data" | cut -f1) MB)"
echo "pgn convert --add-tags eco,opening  $n s"
awk -v p="$p" -v n="$n" 'BEGIN {printf "naming adds %.1f %% (target: at most 10 %%)\n", (n / p - 1) * 100}'

if command -v valgrind >/dev/null; then
  for args in "" "--add-tags eco,opening"; do
    # shellcheck disable=SC2086
    ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" pgn convert -q -j 1 \
      --to lichess $args -o /dev/null "$sample" 2>&1 | grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$')
    echo "instructions, one copy (438 games): ${args:-plain}: $ir"
  done
  ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" opening e4 2>&1 |
    grep -o 'Collected : [0-9]*' | grep -o '[0-9]*$')
  echo "instructions of \`pocketfen opening e4\` (the list replayed once, and the process): $ir"
fi
