#!/usr/bin/env bash
# Fails unless every Vigil module under Sources/ in the debug build was compiled with the named
# sanitizer, that is, its object files call the sanitizer's runtime (`__asan_*` or `__tsan_*`).
# `make test-asan`, `make test-tsan` and scripts/test-repeat.sh run it after their build, so a
# sanitizer run that would silently test uninstrumented code stops instead (docs/fuzzing.md,
# "Sanitizers").
#
#   scripts/check-sanitized.sh address|thread
set -euo pipefail
cd "$(dirname "$0")/.."

case ${1:-} in
  address) prefix=__asan_ ;;
  thread) prefix=__tsan_ ;;
  *) echo "usage: $0 address|thread" >&2; exit 2 ;;
esac

build=$(swift build --show-bin-path)
missing=()
for source in Sources/Vigil*/; do
  module=$(basename "$source")
  objects=("$build/$module.build"/*.o)
  # No `grep -q`: it would stop reading early, and with pipefail nm's SIGPIPE would fail the test.
  if [ ! -e "${objects[0]}" ] || [ "$(nm --undefined-only "${objects[@]}" 2>/dev/null | grep -c " U $prefix")" = 0 ]; then
    missing+=("$module")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "$0: not compiled with -sanitize=$1 in $build: ${missing[*]}" >&2
  exit 1
fi
echo "check-sanitized: $(ls -d Sources/Vigil*/ | wc -l) modules compiled with -sanitize=$1"
