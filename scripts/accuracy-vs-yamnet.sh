#!/usr/bin/env bash
# YAMNet (the model Frigate runs; ../shared/anchors/yamnet) scored on the recordings Vigil's learned
# detectors are measured on (BENCHMARKS.md, "Accuracy against YAMNet"), at two score thresholds:
# 0.8 (Frigate's default audio threshold) and 0.5 (the runner's default).
#   - the development set: `vigil bench accuracy --system`, the scorer of every Vigil figure;
#   - the clip folder (../shared/data/train): the share of each label's clips with an event of it,
#     and events per hour on the negative clips (voices=yes clips left out for personTalking), as
#     the cross-validation counts them;
#   - with `make music-check` run: events on its 92 tracks;
#   - with `make bark-check` run: the unseen-bark scenes (vigil-dev bark-check --write-scenes), also
#     scored for Vigil's shipped dogBark model.
# Usage: scripts/accuracy-vs-yamnet.sh [OUT_DIR] (default .build/yamnet-accuracy).
# YAMNet's runtime comes from PyPI into .build/yamnet-venv, outside the project's build.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/yamnet-accuracy}
data=../shared/data
anchor=../shared/anchors/yamnet
venv=.build/yamnet-venv
[ -d $data/dev/audio ] && [ -f $data/train/clips.tsv ] || { echo "$data: missing (dev/ and train/ beside the package)" >&2; exit 2; }
[ -f $anchor/yamnet_run.py ] || { echo "$anchor: missing (YAMNet and its runner, beside the package)" >&2; exit 2; }
[ -x .build/release/vigil ] || { echo ".build/release/vigil: missing (make build)" >&2; exit 2; }
if [ ! -x $venv/bin/python ]; then
  python3 -m venv $venv
  $venv/bin/pip install -q ai-edge-litert==2.3.0 numpy scipy soundfile
fi
mkdir -p "$out"
yamnet() { $venv/bin/python $anchor/yamnet_run.py --threads 1 --quiet --csv "$out/$1.csv" "${@:2}" > /dev/null 2>&1; }
events() { $venv/bin/python $anchor/yamnet_to_events.py "$out/$1.csv" --threshold "$2" "${@:3}" -o "$out/$1-$2.tsv"; }

yamnet dev $data/dev/audio/*.flac
yamnet clips $data/train/audio/*.flac
for threshold in 0.8 0.5; do
  echo "== YAMNet, threshold $threshold"
  events dev $threshold --files $data/dev/files.tsv
  .build/release/vigil bench accuracy --labels $data/dev/labels.tsv $data/dev/audio --system "$out/dev-$threshold.tsv" |
    sed -n '1,10p'
  events clips $threshold
  $venv/bin/python - $data/train/clips.tsv "$out/clips-$threshold.tsv" <<'PY'
import collections, csv, sys
clips = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
events = collections.Counter()
for line in open(sys.argv[2]):
    name, _, _, label = line.rstrip("\n").split("\t")
    events[(name, label)] += 1
for label in ["dogBark", "glassBreak", "personTalking"]:
    positives = [c for c in clips if c["label"] == label]
    found = sum(1 for c in positives if events[(c["filename"], label)] > 0)
    negatives = [c for c in clips if c["label"] == "negative" and not (label == "personTalking" and c["voices"] == "yes")]
    hours = sum(float(c["seconds"]) for c in negatives) / 3600
    alarms = sum(events[(c["filename"], label)] for c in negatives)
    print(f"clips {label}: {found} of {len(positives)} found ({found / len(positives):.3f}); "
          f"{alarms} events on the negative clips ({alarms / hours:.1f} per hour of {hours:.2f} h)")
PY
done
if [ -d .build/music-check/tracks ]; then
  yamnet music .build/music-check/tracks/*
  for threshold in 0.8 0.5; do
    events music $threshold
    echo "music-check, threshold $threshold: $(cut -f4 "$out/music-$threshold.tsv" | sort | uniq -c | xargs) (92 tracks, 3.6 h)"
  done
fi
if [ -d .build/bark-check/clips ]; then
  swift build -c release --product vigil-dev > /dev/null 2>&1
  .build/release/vigil-dev bark-check "$(pwd)/.build/bark-check/clips" --write-scenes "$out/barks" > /dev/null
  yamnet barks "$out"/barks/*.wav
  for threshold in 0.8 0.5; do
    events barks $threshold
    echo "bark-check scenes, YAMNet threshold $threshold:"
    .build/release/vigil bench accuracy --labels "$out/barks/labels.tsv" "$out/barks" --system "$out/barks-$threshold.tsv" |
      grep -A8 "chosen setting" | grep "^dogBark"
  done
  echo "bark-check scenes, Vigil (sensitivity 5):"
  .build/release/vigil bench accuracy --labels "$out/barks/labels.tsv" "$out/barks" | grep -A8 "chosen setting" | grep "^dogBark"
fi
