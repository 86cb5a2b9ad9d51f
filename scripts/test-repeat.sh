#!/usr/bin/env bash
# Runs the test suite N times while another process keeps one core busy, and prints every
# failing test of every run by name. Used by `make test-repeat N` (docs/fuzzing.md, "Flakes").
#
#   scripts/test-repeat.sh [-s plain|asan|tsan] [-l "LOAD COMMAND"] N
#
# -s  which build to run: plain (as `make test`, the default), asan or tsan (as
#     `make test-asan` / `make test-tsan`; `make test-repeat` sets their environment).
# -l  the load kept running during the runs (default: stress-ng --cpu 1); "none" runs idle.
# The suites run exactly as the Makefile runs them: everything but the live-server abuse suite
# in parallel, then that suite on its own. Logs go to .build/test-repeat/<suite>-<run>.log.
set -uo pipefail
cd "$(dirname "$0")/.."

suite=plain
load="stress-ng --cpu 1"
while getopts "s:l:" option; do
  case $option in
    s) suite=$OPTARG ;;
    l) load=$OPTARG ;;
    *) echo "usage: $0 [-s plain|asan|tsan] [-l LOAD] N" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
runs=${1:-}
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 [-s plain|asan|tsan] [-l LOAD] N   (N: how many runs, a positive integer)" >&2
  exit 2
fi

swift=${SWIFT:-swift}
# The sanitizer builds instrument Vigil's modules and tools in the plain build's directory
# (Package.swift, VIGIL_SANITIZE), as `make test-asan` and `make test-tsan` do.
case $suite in
  plain) unset VIGIL_SANITIZE ;;
  asan) export VIGIL_SANITIZE=address ;;
  tsan) export VIGIL_SANITIZE=thread ;;
  *) echo "$0: unknown suite '$suite' (plain, asan or tsan)" >&2; exit 2 ;;
esac

"$swift" build --build-tests || { echo "$0: the test build failed" >&2; exit 1; }
[ -z "${VIGIL_SANITIZE:-}" ] || scripts/check-sanitized.sh "$VIGIL_SANITIZE" || exit 1

logs=.build/test-repeat
mkdir -p "$logs"
load_pid=""
if [ "$load" != none ]; then
  $load >/dev/null 2>&1 &
  load_pid=$!
  trap 'kill $load_pid 2>/dev/null' EXIT
  echo "load: $load (pid $load_pid)"
fi

passed=0
failed=0
for run in $(seq 1 "$runs"); do
  log=$logs/$suite-$run.log
  started=$SECONDS
  {
    "$swift" test --skip-build --disable-xctest --skip "HostileServerTests|LiveRTSPCommandTests|NeverConnectingStreamTests"
    first=$?
    "$swift" test --skip-build --disable-xctest --filter "HostileServerTests|LiveRTSPCommandTests|NeverConnectingStreamTests"
    second=$?
    [ $first = 0 ] && [ $second = 0 ]
  } >"$log" 2>&1
  status=$?
  seconds=$((SECONDS - started))
  if [ $status = 0 ]; then
    passed=$((passed + 1))
    echo "run $run/$runs: passed in ${seconds} s"
  else
    failed=$((failed + 1))
    echo "run $run/$runs: FAILED in ${seconds} s (log: $log)"
    # Swift Testing names each failing test on a "✘ Test ... failed" line; a crash names none.
    grep -E '✘ Test .* (failed|recorded an issue)' "$log" | sed 's/^/    /' | sort -u | head -40
    grep -qE '✘ Test' "$log" || { echo "    no failing test named: the last lines of the log:"; tail -5 "$log" | sed 's/^/    /'; }
  fi
done
echo "test-repeat ($suite, load: $load): $passed of $runs runs passed, $failed failed"
[ $failed = 0 ]
