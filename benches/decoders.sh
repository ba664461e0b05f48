#!/usr/bin/env bash
# Which decoders pocketfen reads compressed archives with, by measurement (issue 33.23):
#
#   benches/decoders.sh [COPIES]
#
# 1. bzip2: the Rust port of libbz2 (libbz2-rs-sys; `--no-default-features --features
#    cli`, built into target/bzip2-rust) against the C libbz2 (the `bzip2-c` feature,
#    pocketfen's default since this comparison), and against Debian's `bzcat`, on
#    `pbzip2 -9` and `bzip2 -9` files, with instruction counts (callgrind) beside;
# 2. zstd: `pocketfen validate FILE.zst` against `zstdcat FILE.zst | pocketfen validate -`
#    (the decoder in a process of its own), on one large frame (`zstd -3`, read
#    sequentially) and on pzstd's frames (decoded on the workers), at -j 2, idle and with
#    the other core busy.
#
# The text is COPIES (default 60) copies of the bundled 438-game Lichess sample, each with
# its clock and evaluation comments drawn at random, so that it compresses as real
# archives do (about 5:1), not as repeated text. Every figure is the best of 5 runs
# (wall seconds, and user+system CPU seconds), the rows of a comparison alternating; the
# ratios are printed. Needs zstd (with pzstd), bzip2 and pbzip2 (Debian packages).
set -euo pipefail
cd "$(dirname "$0")/.."
copies=${1:-60}
dir=target/bench-data/decoders
mkdir -p "$dir"

cargo build --release -q
CARGO_TARGET_DIR=target/bzip2-rust cargo build --release -q --no-default-features --features cli
rust=target/bzip2-rust/release/pocketfen
clib=target/release/pocketfen

text=$dir/random-$copies.pgn
if [ ! -s "$text" ]; then
  python3 - "$copies" "$text" <<'EOF'
import random, re, sys
copies, out = int(sys.argv[1]), sys.argv[2]
random.seed(7)
src = open("samples/lichess_standard_2025-05_sample438.pgn").read()
clk = re.compile(r"\[%clk \d+:\d\d:\d\d\]")
with open(out, "w") as f:
    for i in range(copies):
        t = clk.sub(lambda m: "[%%clk 0:%02d:%02d] [%%eval %d.%02d]" % (
            random.randrange(60), random.randrange(60), random.randrange(-5, 5), random.randrange(100)), src)
        f.write(t.replace('[Event "', '[Event "c%d ' % i))
        f.write("\n\n")
EOF
fi
[ -s "$text.bz2" ] || bzip2 -9 -c "$text" > "$text.bz2"
[ -s "$text.p.bz2" ] || pbzip2 -9 -p2 -c "$text" > "$text.p.bz2"
[ -s "$text.zst" ] || zstd -q -3 --single-thread -c "$text" > "$text.zst"
[ -s "$text.p.zst" ] || pzstd -q -3 -p 2 -c "$text" > "$text.p.zst"
echo "text: $(($(stat -c %s "$text") / 1000000)) MB; bzip2 $(($(stat -c %s "$text.bz2") / 1000000)) MB, zstd one frame $(($(stat -c %s "$text.zst") / 1000000)) MB"

# best WALL CPU of 5 runs of a shell command line.
best() {
  local wall=999999 cpu=999999 line
  for _ in 1 2 3 4 5; do
    line=$( { TIMEFORMAT='%R %U %S'; time sh -c "$1" >/dev/null 2>&1; } 2>&1 | tail -1)
    read -r w u s <<<"$line"
    wall=$(awk -v a="$wall" -v b="$w" 'BEGIN{print (b<a)?b:a}')
    cpu=$(awk -v a="$cpu" -v b="$(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}')" 'BEGIN{print (b<a)?b:a}')
  done
  echo "$wall $cpu"
}

# A row: two command lines run in turn, their best figures and the ratio A/B.
row() {
  local name=$1 a=$2 b=$3 ra rb
  ra=$(best "$a")
  rb=$(best "$b")
  read -r wa ca <<<"$ra"
  read -r wb cb <<<"$rb"
  printf '| %s | %.3f s (%.3f CPU) | %.3f s (%.3f CPU) | %.2f × wall, %.2f × CPU |\n' \
    "$name" "$wa" "$ca" "$wb" "$cb" "$(awk -v a="$wa" -v b="$wb" 'BEGIN{print a/b}')" \
    "$(awk -v a="$ca" -v b="$cb" 'BEGIN{print a/b}')"
}

echo
echo "| bzip2 (A against B) | A | B | A / B |"
echo "| --- | --- | --- | --- |"
row "bzip2 -9, -j 1: Rust port (A) against C libbz2 (B)" \
  "$rust validate -q -j 1 $text.bz2" "$clib validate -q -j 1 $text.bz2"
row "pbzip2 -9, -j 1: Rust port (A) against C libbz2 (B)" \
  "$rust validate -q -j 1 $text.p.bz2" "$clib validate -q -j 1 $text.p.bz2"
row "bzip2 -9: validate -j 1, C libbz2 (A), against bzcat alone (B)" \
  "$clib validate -q -j 1 $text.bz2" "bzcat $text.bz2"
row "plain text: validate -j 1 (A) against bzcat alone (B)" \
  "$clib validate -q -j 1 $text" "bzcat $text.bz2"

# Instruction counts (callgrind: the same whatever else the machine does) on a tenth of
# the text: decoding is the bzip2 run's count less the plain run's.
if command -v valgrind >/dev/null; then
  small=$dir/random-small.pgn
  head -c $(($(stat -c %s "$text") / 10)) "$text" > "$small"
  bzip2 -9 -c "$small" > "$small.bz2"
  ir() {
    # (A text cut short ends in a broken game: validate's exit 1 is no failure here.)
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } |
      awk '/I *refs:/ {gsub(",", "", $NF); print $NF}'
  }
  plain=$(ir "$clib" validate -q -j 1 "$small")
  r=$(ir "$rust" validate -q -j 1 "$small.bz2")
  c=$(ir "$clib" validate -q -j 1 "$small.bz2")
  b=$(ir bzip2 -dc "$small.bz2")
  echo
  echo "| instructions (callgrind), $(($(stat -c %s "$small") / 1000000)) MB of text | count |"
  echo "| --- | --- |"
  echo "| validate, plain text | $plain |"
  echo "| validate, bzip2 -9, Rust port | $r (decoding $((r - plain))) |"
  echo "| validate, bzip2 -9, C libbz2 | $c (decoding $((c - plain))) |"
  echo "| bzip2 -dc (Debian) | $b |"
  awk -v r=$((r - plain)) -v c=$((c - plain)) -v b="$b" \
    'BEGIN{printf "decoding: Rust port / C libbz2 %.2f; C libbz2 / bzip2 -dc %.2f\n", r/c, c/b}'
fi

zstd_rows() {
  row "zstd one frame, -j 2: the file (A) against zstdcat piped to validate - (B)$1" \
    "$clib validate -q -j 2 $text.zst" "zstdcat $text.zst | $clib validate -q -j 2 -"
  row "pzstd frames, -j 2: the file (A) against zstdcat piped to validate - (B)$1" \
    "$clib validate -q -j 2 $text.p.zst" "zstdcat $text.p.zst | $clib validate -q -j 2 -"
}
echo
echo "| zstd (A against B) | A | B | A / B |"
echo "| --- | --- | --- | --- |"
zstd_rows ""
# The other core busy, as on a loaded machine.
sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
zstd_rows ", one core busy"
