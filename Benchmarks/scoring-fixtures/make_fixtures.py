#!/usr/bin/env python3
"""Generate sed_eval reference fixtures for VigilScoring.

    pip install sed_eval && python3 Benchmarks/scoring-fixtures/make_fixtures.py

Writes one JSON file per scenario next to this script. Each holds the inputs (labels, and per file the
reference and estimated events and an optional evaluated length) and, per metric setting, the values
sed_eval reports: results() (overall, class_wise, class_wise_average) plus its internal accumulated
counts. NaN and infinities are written as the strings "NaN", "Infinity", "-Infinity".
Scenarios are deterministic (fixed seeds); rerunning reproduces the files byte for byte.
"""
import json
import math
import os
import random

import sed_eval

HERE = os.path.dirname(os.path.abspath(__file__))

SETTINGS = {
    "event_dcase2017": dict(kind="event", t_collar=0.5, percentage_of_length=0.5, evaluate_onset=True,
                            evaluate_offset=False, event_matching_type="optimal"),
    "event_dcase2017_greedy": dict(kind="event", t_collar=0.5, percentage_of_length=0.5, evaluate_onset=True,
                                   evaluate_offset=False, event_matching_type="greedy"),
    "event_default": dict(kind="event", t_collar=0.2, percentage_of_length=0.5, evaluate_onset=True,
                          evaluate_offset=True, event_matching_type="optimal"),
    "event_default_greedy": dict(kind="event", t_collar=0.2, percentage_of_length=0.5, evaluate_onset=True,
                                 evaluate_offset=True, event_matching_type="greedy"),
    "event_offset_only": dict(kind="event", t_collar=0.2, percentage_of_length=0.5, evaluate_onset=False,
                              evaluate_offset=True, event_matching_type="optimal"),
    "segment_1s": dict(kind="segment", time_resolution=1.0),
    "segment_0_5s": dict(kind="segment", time_resolution=0.5),
}


def clean(x):
    """JSON-safe copy: numpy scalars to float, NaN/inf to strings."""
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return x
    v = float(x)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def to_dicts(name, events):
    return [{"filename": name, "event_onset": on, "event_offset": off, "event_label": lab}
            for on, off, lab in events]


def run(scenario):
    labels = scenario["labels"]
    out = {}
    for key, s in SETTINGS.items():
        if s["kind"] == "event":
            m = sed_eval.sound_event.EventBasedMetrics(
                event_label_list=labels, t_collar=s["t_collar"], percentage_of_length=s["percentage_of_length"],
                evaluate_onset=s["evaluate_onset"], evaluate_offset=s["evaluate_offset"],
                event_matching_type=s["event_matching_type"])
            for f in scenario["files"]:
                m.evaluate(to_dicts(f["name"], f["reference"]), to_dicts(f["name"], f["estimated"]))
            length = m.evaluated_length
        else:
            m = sed_eval.sound_event.SegmentBasedMetrics(event_label_list=labels,
                                                         time_resolution=s["time_resolution"])
            for f in scenario["files"]:
                m.evaluate(to_dicts(f["name"], f["reference"]), to_dicts(f["name"], f["estimated"]),
                           evaluated_length_seconds=f.get("evaluated_length"))
            length = m.evaluated_length_seconds
        out[key] = {
            "settings": {k: v for k, v in s.items()},
            "evaluated_files": m.evaluated_files,
            "evaluated_length": length,
            "results": m.results(),
            "overall_counts": dict(m.overall),
            "class_wise_counts": {lab: dict(m.class_wise[lab]) for lab in labels},
        }
    return out


def r3(x):
    return round(x, 3)


def jittered(rng, events, labels, p_miss=0.15, p_swap=0.1, jitter=0.4, p_split=0.05):
    """System output derived from references: jitter, misses, label swaps, splits."""
    est = []
    for on, off, lab in events:
        if rng.random() < p_miss:
            continue
        if rng.random() < p_swap:
            lab = rng.choice([x for x in labels if x != lab])
        on2 = max(0.0, r3(on + rng.uniform(-jitter, jitter)))
        off2 = max(on2 + 0.05, r3(off + rng.uniform(-jitter * 2, jitter * 2)))
        if rng.random() < p_split and off2 - on2 > 1.0:
            mid = r3((on2 + off2) / 2)
            est.append((on2, mid, lab))
            est.append((r3(mid + 0.1), r3(off2), lab))
        else:
            est.append((on2, r3(off2), lab))
    return est


def random_events(rng, labels, n, length, min_dur=0.1, max_dur=4.0):
    ev = []
    for _ in range(n):
        on = r3(rng.uniform(0, length - min_dur))
        off = r3(min(length, on + rng.uniform(min_dur, max_dur)))
        ev.append((on, off, rng.choice(labels)))
    ev.sort()
    return ev


def scenario_random(seed, n_files, labels, with_lengths):
    rng = random.Random(seed)
    files = []
    for k in range(n_files):
        length = r3(rng.uniform(5, 40))
        ref = random_events(rng, labels, rng.randint(0, 8), length)
        est = jittered(rng, ref, labels)
        est += random_events(rng, labels, rng.randint(0, 3), length)  # insertions
        rng.shuffle(est)
        f = {"name": "clip%02d.wav" % k, "reference": ref, "estimated": est}
        if with_lengths:
            f["evaluated_length"] = length
        files.append(f)
    return {"name": "random_seed%d" % seed, "labels": labels, "files": files}


def scenario_near_collar():
    """Onsets and offsets at and around the collar boundaries."""
    labels = ["dogBark", "glassBreak"]
    files = []
    deltas = [0.0, 0.1, 0.2, 0.2000001, 0.1999999, 0.3, 0.5, 0.4999999, 0.5000001, 0.7, -0.2, -0.5, -0.5000001]
    for k, d in enumerate(deltas):
        ref = [(1.0, 3.0, "dogBark"), (10.0, 10.3, "glassBreak"), (20.25, 24.75, "dogBark")]
        est = [(1.0 + d, 3.0 + d, "dogBark"), (10.0 + d, 10.3 - d, "glassBreak"),
               (20.25 - d, 24.75 + 4 * d, "dogBark")]
        files.append({"name": "collar%02d.wav" % k, "reference": ref, "estimated": est})
    # Offsets at the percentage-of-length boundary (reference length 4 s -> 2 s offset collar).
    for k, d in enumerate([1.9, 2.0, 2.1, 1.999, 2.001]):
        ref = [(0.0, 4.0, "dogBark")]
        est = [(0.1, 4.0 + d, "dogBark"), (5.0, 6.0, "glassBreak")]
        files.append({"name": "length%02d.wav" % k, "reference": ref, "estimated": est})
    # Decimal values whose differences are not exact in binary.
    files.append({"name": "decimals.wav",
                  "reference": [(1.2, 2.3, "dogBark"), (3.1, 3.3, "glassBreak"), (0.7, 1.1, "glassBreak")],
                  "estimated": [(1.7, 2.5, "dogBark"), (2.9, 3.5, "glassBreak"), (0.5, 1.3, "glassBreak")]})
    return {"name": "near_collar", "labels": labels, "files": files}


def scenario_edge_files():
    """Empty files, files with only estimates or only references, a label never present."""
    labels = ["smokeAlarm", "coAlarm", "dogBark"]
    files = [
        {"name": "empty.wav", "reference": [], "estimated": []},
        {"name": "empty_with_length.wav", "reference": [], "estimated": [], "evaluated_length": 30.0},
        {"name": "only_est.wav", "reference": [], "estimated": [(2.0, 5.5, "smokeAlarm"), (7.0, 7.4, "dogBark")]},
        {"name": "only_ref.wav", "reference": [(1.0, 9.0, "smokeAlarm"), (3.3, 3.9, "dogBark")], "estimated": []},
        {"name": "short_length.wav", "reference": [(1.0, 9.0, "dogBark")], "estimated": [(1.2, 12.0, "dogBark")],
         "evaluated_length": 5.0},
        {"name": "substitution.wav", "reference": [(4.0, 6.0, "smokeAlarm"), (8.0, 9.0, "dogBark")],
         "estimated": [(4.1, 6.2, "coAlarm"), (8.1, 8.9, "dogBark"), (8.2, 9.0, "dogBark")]},
    ]
    return {"name": "edge_files", "labels": labels, "files": files}


def scenario_no_references():
    labels = ["glassBreak", "personTalking"]
    files = [
        {"name": "neg1.wav", "reference": [], "estimated": [(1.0, 2.0, "glassBreak")]},
        {"name": "neg2.wav", "reference": [], "estimated": []},
    ]
    return {"name": "no_references", "labels": labels, "files": files}


def scenario_no_estimates():
    labels = ["glassBreak", "personTalking"]
    files = [
        {"name": "pos1.wav", "reference": [(1.0, 2.0, "glassBreak"), (3.0, 8.0, "personTalking")], "estimated": []},
        {"name": "pos2.wav", "reference": [], "estimated": []},
    ]
    return {"name": "no_estimates", "labels": labels, "files": files}


def scenario_greedy_vs_optimal():
    """Overlapping candidates where first-fit greedy matching loses a match that optimal matching finds."""
    labels = ["dogBark"]
    files = [
        # Reference A fits system 1 and 2; B fits only system 1. Greedy gives A<-1 and loses B.
        {"name": "g1.wav", "reference": [(1.0, 2.0, "dogBark"), (1.4, 2.4, "dogBark")],
         "estimated": [(1.3, 2.3, "dogBark"), (0.9, 1.9, "dogBark")]},
        {"name": "g2.wav", "reference": [(5.0, 6.0, "dogBark"), (5.5, 6.5, "dogBark"), (6.0, 7.0, "dogBark")],
         "estimated": [(5.45, 6.45, "dogBark"), (5.9, 6.9, "dogBark"), (4.9, 5.9, "dogBark")]},
        # Same with the 0.2 s collar and offsets: A fits systems 1 and 2, B only system 1.
        {"name": "g3.wav", "reference": [(1.0, 2.0, "dogBark"), (1.15, 2.15, "dogBark")],
         "estimated": [(1.1, 2.1, "dogBark"), (0.9, 1.9, "dogBark")]},
    ]
    return {"name": "greedy_vs_optimal", "labels": labels, "files": files}


def scenario_realistic(seed=2024):
    """Home-security clips: alarms with detector latency, fragmented detections, false alarms on negatives."""
    rng = random.Random(seed)
    labels = ["smokeAlarm", "coAlarm", "dogBark", "glassBreak", "personTalking", "sound"]
    files = []
    for k in range(24):
        length = float(rng.choice([30, 45, 60]))
        ref = []
        kind = k % 4
        if kind == 0:  # alarm clip
            lab = rng.choice(["smokeAlarm", "coAlarm"])
            on = r3(rng.uniform(2, 10))
            ref.append((on, r3(min(length, on + rng.uniform(8, 20))), lab))
        elif kind == 1:  # dog and talking
            t = r3(rng.uniform(0, 5))
            while t < length - 3:
                lab = rng.choice(["dogBark", "personTalking"])
                dur = rng.uniform(0.3, 1.0) if lab == "dogBark" else rng.uniform(2, 6)
                ref.append((t, r3(min(length, t + dur)), lab))
                t = r3(t + dur + rng.uniform(0.5, 6))
        elif kind == 2:  # glass break plus generic sound
            on = r3(rng.uniform(1, length - 5))
            ref.append((on, r3(on + rng.uniform(0.3, 1.5)), "glassBreak"))
            on2 = r3(rng.uniform(0, length - 5))
            ref.append((on2, r3(on2 + rng.uniform(1, 4)), "sound"))
        # kind 3: negative clip
        est = []
        for on, off, lab in ref:
            if rng.random() < 0.1:
                continue
            latency = rng.uniform(0.0, 3.0) if lab in ("smokeAlarm", "coAlarm") else rng.uniform(-0.15, 0.6)
            on2 = r3(max(0.0, on + latency))
            off2 = r3(min(length, off + rng.uniform(-1.0, 1.5)))
            if off2 <= on2:
                off2 = r3(on2 + 0.2)
            if lab == "personTalking" and rng.random() < 0.3 and off2 - on2 > 2:
                mid = r3(on2 + (off2 - on2) * rng.uniform(0.3, 0.7))
                est.append((on2, mid, lab))
                est.append((r3(mid + 0.3), off2, lab))
            else:
                est.append((on2, off2, "sound" if rng.random() < 0.05 else lab))
        for _ in range(rng.choice([0, 0, 0, 1, 2])):
            on = r3(rng.uniform(0, length - 2))
            est.append((on, r3(on + rng.uniform(0.2, 2)), rng.choice(labels)))
        files.append({"name": "home%02d.wav" % k, "reference": ref, "estimated": est, "evaluated_length": length})
    return {"name": "realistic_home", "labels": labels, "files": files}


def main():
    scenarios = [
        scenario_random(1, 6, ["dogBark", "glassBreak", "sound"], with_lengths=False),
        scenario_random(2, 10, ["smokeAlarm", "coAlarm", "dogBark", "personTalking"], with_lengths=True),
        scenario_random(3, 8, ["a", "b"], with_lengths=False),
        scenario_near_collar(),
        scenario_edge_files(),
        scenario_no_references(),
        scenario_no_estimates(),
        scenario_greedy_vs_optimal(),
        scenario_realistic(),
    ]
    import sed_eval as se
    for sc in scenarios:
        for f in sc["files"]:
            f["reference"] = [list(e) for e in f["reference"]]
            f["estimated"] = [list(e) for e in f["estimated"]]
        doc = {
            "generator": "make_fixtures.py",
            "sed_eval_version": getattr(se, "__version__", "unknown"),
            "scenario": sc,
            "metrics": run(sc),
        }
        path = os.path.join(HERE, sc["name"] + ".json")
        with open(path, "w") as fh:
            json.dump(clean(doc), fh, indent=1, sort_keys=True, allow_nan=False)
            fh.write("\n")
        print("wrote", os.path.relpath(path))


if __name__ == "__main__":
    main()
