#!/usr/bin/env python3
"""Fixture for `vigil bench accuracy --system` on the development set.

    pip install sed_eval && python3 Benchmarks/dev-system-fixture/make_fixture.py

Reads ../shared/data/dev/labels.tsv and files.tsv, derives a deterministic detection file from the
references (onset/offset jitter, misses, label swaps, and false detections on other files, fixed
seed), writes it as dev_system.tsv, scores it with sed_eval exactly as `vigil bench accuracy` does
(every file of files.tsv evaluated, files without references included; event-based with a 0.5 s
onset collar and offsets ignored, event-based with sed_eval's defaults, segment-based with 1 s
segments), and writes the numbers sed_eval printed to dev_system_expected.json. The Swift test
VigilCLITests runs `vigil bench accuracy --system dev_system.tsv --json` and compares.
"""
import json
import math
import os
import random

import sed_eval

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEV = os.path.join(ROOT, "..", "shared", "data", "dev")


def read_tsv(path, columns):
    rows = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == columns:
                rows.append(parts)
    return rows


def clean(x):
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if x is None or isinstance(x, (bool, str)):
        return x
    v = float(x)
    if math.isnan(v) or math.isinf(v):
        return None
    return v


def main():
    labels_rows = read_tsv(os.path.join(DEV, "labels.tsv"), 4)
    files = [(name, float(d)) for name, d in read_tsv(os.path.join(DEV, "files.tsv"), 2)]
    reference = {}
    for name, on, off, lab in labels_rows:
        reference.setdefault(name, []).append((float(on), float(off), lab))
    labels = sorted({r[3] for r in labels_rows})
    rng = random.Random(20261122)
    system = {}
    for name, duration in files:
        est = []
        for on, off, lab in reference.get(name, []):
            if rng.random() < 0.15:
                continue
            if rng.random() < 0.08:
                lab = rng.choice([x for x in labels if x != lab])
            on2 = round(max(0.0, on + rng.uniform(-0.6, 0.6)), 3)
            off2 = round(max(on2 + 0.05, off + rng.uniform(-1.0, 1.0)), 3)
            est.append((on2, off2, lab))
        if rng.random() < 0.12:
            on2 = round(rng.uniform(0, max(0.1, duration - 1)), 3)
            est.append((on2, round(min(duration, on2 + rng.uniform(0.2, 3)), 3), rng.choice(labels)))
        system[name] = sorted(est)

    with open(os.path.join(HERE, "dev_system.tsv"), "w") as f:
        for name, _ in files:
            for on, off, lab in system[name]:
                f.write("%s\t%.3f\t%.3f\t%s\n" % (name, on, off, lab))

    def dicts(name, events):
        return [{"filename": name, "event_onset": a, "event_offset": b, "event_label": c} for a, b, c in events]

    settings = {
        "eventBased": sed_eval.sound_event.EventBasedMetrics(
            event_label_list=labels, t_collar=0.5, percentage_of_length=0.5, evaluate_onset=True,
            evaluate_offset=False),
        "eventBasedSedEvalDefault": sed_eval.sound_event.EventBasedMetrics(event_label_list=labels),
        "segmentBased": sed_eval.sound_event.SegmentBasedMetrics(event_label_list=labels, time_resolution=1.0),
    }
    for name, _ in files:
        for m in settings.values():
            m.evaluate(dicts(name, reference.get(name, [])), dicts(name, system[name]))
    expected = {"labels": labels, "files": len(files)}
    for key, m in settings.items():
        r = m.results()
        expected[key] = {
            "overall": {"f1": r["overall"]["f_measure"]["f_measure"],
                        "precision": r["overall"]["f_measure"]["precision"],
                        "recall": r["overall"]["f_measure"]["recall"],
                        "errorRate": r["overall"]["error_rate"]["error_rate"]},
            "classWise": {lab: {"f1": r["class_wise"][lab]["f_measure"]["f_measure"],
                                "precision": r["class_wise"][lab]["f_measure"]["precision"],
                                "recall": r["class_wise"][lab]["f_measure"]["recall"],
                                "errorRate": r["class_wise"][lab]["error_rate"]["error_rate"]} for lab in labels},
        }
    with open(os.path.join(HERE, "dev_system_expected.json"), "w") as f:
        json.dump(clean(expected), f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(clean({k: expected[k]["overall"] for k in settings}), indent=1))


if __name__ == "__main__":
    main()
