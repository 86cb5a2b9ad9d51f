#!/usr/bin/env bash
# Runs the libFuzzer targets built by `make fuzz-build` (Fuzz/.build/release), a few at a time.
#
#   Fuzz/run-fuzzers.sh [-t SECONDS | -r RUNS] [-j JOBS] [-s SEED] [TARGET...]
#
# -t: stop each target after SECONDS (libFuzzer -max_total_time); -r: after RUNS executions
# (-runs); -j: targets run at the same time (default 1); -s: libFuzzer's random seed (-seed,
# default 1, so that CI's smoke run can be repeated; 0 lets libFuzzer pick one from the clock).
# With a seed other than 0, Swift's per-process hash seed is fixed too (SWIFT_DETERMINISTIC_HASHING),
# so a -r run from the same committed seeds and working corpus makes the same inputs and ends
# with the same cov/ft/corpus; with -t, how far it gets depends on the machine's speed.
# Default targets: all six.
# Each target fuzzes from its committed seeds (Fuzz/Corpus/TARGET) into a working corpus in
# .build/fuzz/TARGET/corpus (kept between runs, never committed); its log, and any crash, leak,
# timeout or out-of-memory input, go to .build/fuzz/TARGET/. Prints one line per target
# (executions, cov, ft, corpus, result) and exits non-zero if any target found something; a
# timeout-* input is first run again alone, and one that now finishes in time is not a finding.
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=60 runs="" jobs=1 seed=1
while getopts "t:r:j:s:" option; do
  case $option in
    t) seconds=$OPTARG ;;
    r) runs=$OPTARG ;;
    j) jobs=$OPTARG ;;
    s) seed=$OPTARG ;;
    *) echo "usage: $0 [-t SECONDS | -r RUNS] [-j JOBS] [-s SEED] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
case $seed in
  '' | *[!0-9]*) echo "$0: -s needs a non-negative integer, got '$seed'" >&2; exit 2 ;;
esac
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(FuzzDeviceFile FuzzAudioFile FuzzY4M FuzzPNG FuzzControlRequest FuzzMediaContainer)

bin=Fuzz/.build/release
timeout=10  # seconds one input may take (libFuzzer -timeout)
limit=(-max_total_time="$seconds")
[ -n "$runs" ] && limit=(-runs="$runs")

# Crashes print quickly without the Swift runtime's interactive backtracer; libFuzzer reports them.
export SWIFT_BACKTRACE=enable=no
# Set and Dictionary order depends on a random per-process hash seed, and that order reaches the
# coverage libFuzzer sees: with a fixed libFuzzer seed, fix it too, or runs still differ.
[ "$seed" -ne 0 ] && export SWIFT_DETERMINISTIC_HASHING=1

run_one() {
  local target=$1 dir=.build/fuzz/$1
  mkdir -p "$dir/corpus"
  rm -f "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-*
  "$bin/$target" "${limit[@]}" -seed="$seed" -max_len=4096 -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/" "$dir/corpus" "Fuzz/Corpus/$target" >"$dir/log" 2>&1
  echo $? >"$dir/status"
}

for target in "${targets[@]}"; do
  [ -x "$bin/$target" ] || { echo "$bin/$target is missing: run make fuzz-build" >&2; exit 2; }
done

start=$(date +%s)
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  run_one "$target" &
done
wait

# Runs each timeout-* input of TARGET alone with the run's limits. Succeeds when none of them
# times out again, setting $rechecked to what was seen (the input and how long it took alone).
recheck_timeouts() {
  local target=$1 dir=.build/fuzz/$1 input begin took
  rechecked=""
  for input in "$dir"/timeout-*; do
    begin=$(date +%s.%N)
    if ! "$bin/$target" -timeout="$timeout" -rss_limit_mb=2048 "$input" >"$input.recheck.log" 2>&1; then
      return 1
    fi
    took=$(awk -v a="$begin" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    rechecked="${rechecked}timeout not reproduced: $input ran alone in ${took} s, a stall of the machine; "
  done
  rechecked=${rechecked%; }
}

failed=0
printf "%-20s %12s %8s %8s %14s %8s  %s\n" target executions cov ft corpus exec/s result
for target in "${targets[@]}"; do
  dir=.build/fuzz/$target
  status=$(cat "$dir/status")
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$dir/log" | tail -1)
  cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
  corpus=$(echo "$last" | sed -n 's/.*corp: \([^ ]*\).*/\1/p')
  result=ok found=0
  if [ "$status" != 0 ] || ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* >/dev/null 2>&1; then
    result="FOUND (exit $status): $(ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2>/dev/null | tr '\n' ' ')see $dir/log"
    found=1
    # A timeout alone is checked again: the input runs once more on its own, with the same
    # limit, after every target has stopped. A slow input is slow every time (the code is
    # deterministic); one that now finishes in time was a stall of a loaded machine, not a bug.
    if ! ls "$dir"/crash-* "$dir"/leak-* "$dir"/oom-* >/dev/null 2>&1 && ls "$dir"/timeout-* >/dev/null 2>&1; then
      if recheck_timeouts "$target"; then
        result="ok ($rechecked)"
        found=0
      fi
    fi
  fi
  [ "$found" = 1 ] && failed=1
  printf "%-20s %12s %8s %8s %14s %8s  %s\n" "$target" "${executions:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "${speed:-?}" "$result"
done
echo "wall time: $(( $(date +%s) - start )) s, $jobs at a time, seed $seed, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit $failed
