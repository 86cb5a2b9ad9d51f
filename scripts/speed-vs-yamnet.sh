#!/usr/bin/env bash
# Vigil's six sound detectors against YAMNet (the model Frigate runs; ../shared/anchors/yamnet),
# end to end (start-up, decoding, resampling, analysis), side by side in one run, on one core, on the
# same recordings (BENCHMARKS.md, "Sound detectors against YAMNet"). Each side runs REPEAT times and
# its fastest run counts. Usage: scripts/speed-vs-yamnet.sh [AUDIO_DIR] (default ../shared/data/dev/audio).
# YAMNet's runtime comes from PyPI into .build/yamnet-venv, outside the project's build.
set -euo pipefail
cd "$(dirname "$0")/.."
audio=${1:-../shared/data/dev/audio}
core=${CORE:-1}
repeat=${REPEAT:-3}
anchor=../shared/anchors/yamnet
venv=.build/yamnet-venv
[ -d "$audio" ] || { echo "$audio: not a directory (the recordings to time)" >&2; exit 2; }
[ -f $anchor/yamnet_run.py ] || { echo "$anchor: missing (YAMNet and its runner, beside the package)" >&2; exit 2; }
[ -x .build/release/vigil ] || { echo ".build/release/vigil: missing (make build)" >&2; exit 2; }
if [ ! -x $venv/bin/python ]; then
  python3 -m venv $venv
  $venv/bin/pip install -q ai-edge-litert==2.3.0 numpy scipy soundfile
fi
files=$(find "$audio" -maxdepth 1 -type f \( -name '*.flac' -o -name '*.wav' \) | sort)
[ -n "$files" ] || { echo "$audio: no .flac or .wav files" >&2; exit 2; }
# shellcheck disable=SC2086
seconds=$($venv/bin/python -c 'import sys, soundfile; print(sum(soundfile.info(f).duration for f in sys.argv[1:]))' $files)
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT
# Fastest CPU time (user + system, seconds) of REPEAT runs of the command.
best() {
  local min=""
  for _ in $(seq "$repeat"); do
    local t
    /usr/bin/time -o "$timing" -f '%U %S' taskset -c "$core" "$@" > /dev/null 2> /dev/null
    t=$(tail -n 1 "$timing" | awk '{print $1 + $2}')
    if [ -z "$min" ] || awk -v a="$t" -v b="$min" 'BEGIN { exit !(a < b) }'; then min=$t; fi
  done
  echo "$min"
}
# shellcheck disable=SC2086
vigil=$(best .build/release/vigil analyze "$audio" --format jsonl --no-progress)
# shellcheck disable=SC2086
yamnet=$(best $venv/bin/python $anchor/yamnet_run.py --threads 1 --quiet $files)
awk -v s="$seconds" -v v="$vigil" -v y="$yamnet" -v n="$(echo "$files" | wc -l)" 'BEGIN {
  printf "%d files, %.1f s of audio, one core, best of the runs (CPU seconds)\n", n, s
  printf "vigil analyze (six sound detectors): %.2f s, %.0fx real time\n", v, s / v
  printf "YAMNet (TF Lite, 1 thread):          %.2f s, %.0fx real time\n", y, s / y
  printf "ratio: %.2f\n", y / v
}'
