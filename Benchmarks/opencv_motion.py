#!/usr/bin/env python3
"""OpenCV 4 background subtractors (MOG2, KNN) scored like `vigil bench motion`.

Runs cv2.createBackgroundSubtractorMOG2 and cv2.createBackgroundSubtractorKNN (default
parameters, shadow detection on, one thread) on the luma of the frames of every sequence
folder of SETS_DIR, decoded exactly as Vigil decodes them (the ffmpeg command, gray), and
scores the masks with the CDnet 2014 rules: detector positives are 255 (shadows, 127, count
as background); ground truth 255 is positive, 0 and 50 negative, 85 and 170 and pixels
outside ROI.png are not scored; counts are summed over the scored frames of sequence.json.
Zone F1 uses the same fixed 2 x 2 grid and 0.5 % activity rule as Vigil.

Not part of the Swift build. Setup (OpenCV from PyPI in a virtual environment):
    python3 -m venv .venv-opencv
    .venv-opencv/bin/pip install "opencv-python-headless<5" numpy
    .venv-opencv/bin/python Benchmarks/opencv_motion.py ../shared/data/motion [--json]
Needs the ffmpeg command (Debian package ffmpeg).
"""
import json
import os
import subprocess
import sys
import time

import cv2
import numpy as np

# Frame i is scored against gt i (both counted from 0). GT_OFFSET=1 scores it against gt i+1 instead,
# a shifted mapping that reproduces the figures quoted with the data set (BENCHMARKS.md).
GT_OFFSET = int(os.environ.get("GT_OFFSET", "0"))
COLUMNS = ["recall", "specificity", "fpr", "fnr", "pwc", "precision", "fMeasure", "zoneF1", "msPerFrame"]


def decode_luma(path, width, height):
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-map", "0:v:0", "-fps_mode", "passthrough",
         "-pix_fmt", "gray", "-f", "rawvideo", "-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, height, width)


def label_plane(path):
    image = cv2.imread(path, cv2.IMREAD_UNCHANGED)  # palette files come as BGR with gray colours
    if image is None:
        raise RuntimeError(f"{path}: cannot read")
    return image[..., 0] if image.ndim == 3 else image


def ratio(a, b):
    return a / b if b > 0 else None


def measures(tp, fp, tn, fn, zone, ms):
    recall, precision = ratio(tp, tp + fn), ratio(tp, tp + fp)
    f = ratio(2 * tp, 2 * tp + fp + fn)  # = 2PR/(P+R) where defined; 0 when nothing was detected
    pwc = ratio(fn + fp, tp + fn + fp + tn)
    ztp, zfp, zfn = zone
    return [recall, ratio(tn, tn + fp), ratio(fp, fp + tn), ratio(fn, tp + fn), None if pwc is None else 100 * pwc,
            precision, f, ratio(2 * ztp, 2 * ztp + zfp + zfn), ms]


def score_sequence(folder, make_subtractor):
    with open(os.path.join(folder, "sequence.json")) as f:
        info = json.load(f)
    first, last = info["scoredFrames"]
    frames = decode_luma(os.path.join(folder, "input.mp4"), info["width"], info["height"])
    h, w = frames.shape[1:]
    roi_path = os.path.join(folder, "ROI.png")
    roi = label_plane(roi_path) != 0 if os.path.exists(roi_path) else np.ones((h, w), bool)
    zone_of = (np.arange(h)[:, None] * 2 // h) * 2 + (np.arange(w)[None, :] * 2 // w)
    subtractor = make_subtractor()
    tp = fp = tn = fn = 0
    zone = [0, 0, 0]
    cpu = 0.0
    for index, frame in enumerate(frames):
        start = time.thread_time()
        mask = subtractor.apply(frame)
        cpu += time.thread_time() - start
        if index < first or index > last:
            continue
        truth_path = os.path.join(folder, "groundtruth", f"gt{index + GT_OFFSET:06d}.png")
        if GT_OFFSET and not os.path.exists(truth_path):
            continue  # the shifted experiment runs past the last ground-truth file
        truth = label_plane(truth_path)
        positive = mask == 255
        scored = roi & ((truth == 255) | (truth == 0) | (truth == 50))
        truth_pos = scored & (truth == 255)
        truth_neg = scored & (truth != 255)
        tp += int((positive & truth_pos).sum())
        fn += int((~positive & truth_pos).sum())
        fp += int((positive & truth_neg).sum())
        tn += int((~positive & truth_neg).sum())
        for z in range(4):
            in_zone = scored & (zone_of == z)
            n = int(in_zone.sum())
            if n == 0:
                continue
            t = int((truth_pos & (zone_of == z)).sum())
            d = int((positive & in_zone).sum())
            reference, system = t > 0 and t >= 0.005 * n, d > 0 and d >= 0.005 * n
            if reference and system:
                zone[0] += 1
            elif system:
                zone[1] += 1
            elif reference:
                zone[2] += 1
    return {"frames": len(frames), "scoredFrames": last - first + 1,
            "counts": (tp, fp, tn, fn), "measures": measures(tp, fp, tn, fn, zone, cpu * 1000 / len(frames))}


def table(name, rows):
    header = ["sequence", "frames", "Re", "Sp", "FPR", "FNR", "PWC", "Pr", "F", "zoneF1", "ms/frame"]
    lines = [header]
    for sequence, r in rows:
        lines.append([sequence, str(r["scoredFrames"])] + [fmt(v, c) for c, v in enumerate(r["measures"])])
    means = mean_measures([r for _, r in rows])
    lines.append(["mean", str(sum(r["scoredFrames"] for _, r in rows))] + [fmt(v, c) for c, v in enumerate(means)])
    widths = [max(len(l[c]) for l in lines) for c in range(len(header))]
    out = [name]
    for l in lines:
        out.append("  ".join(cell.ljust(widths[c]) if c == 0 else cell.rjust(widths[c]) for c, cell in enumerate(l)))
    return "\n".join(out)


def fmt(value, column):
    return "-" if value is None else f"{value:.{3 if column in (4, 8) else 4}f}"


def mean_measures(results):
    means = []
    for c in range(len(COLUMNS)):
        values = [r["measures"][c] for r in results if r["measures"][c] is not None]
        means.append(sum(values) / len(values) if values else None)
    return means


def main():
    args = [a for a in sys.argv[1:] if a != "--json"]
    if len(args) != 1:
        sys.exit(__doc__)
    sets = args[0]
    cv2.setNumThreads(1)
    methods = {
        "MOG2": lambda: cv2.createBackgroundSubtractorMOG2(detectShadows=True),
        "KNN": lambda: cv2.createBackgroundSubtractorKNN(detectShadows=True),
    }
    sequences = sorted(d for d in os.listdir(sets) if os.path.isdir(os.path.join(sets, d)) and not d.startswith("."))
    report = {"opencv": cv2.__version__, "methods": {}}
    for method, make in methods.items():
        rows = []
        for sequence in sequences:
            try:
                rows.append((sequence, score_sequence(os.path.join(sets, sequence), make)))
            except (OSError, KeyError, RuntimeError, subprocess.CalledProcessError) as error:
                print(f"error: {os.path.join(sets, sequence)}: {error}", file=sys.stderr)
        report["methods"][method] = {
            "sequences": [{"sequence": s, **{k: v for k, v in r.items() if k != "measures"}, **dict(zip(COLUMNS, r["measures"]))} for s, r in rows],
            "mean": dict(zip(COLUMNS, mean_measures([r for _, r in rows]))),
        }
        if "--json" not in sys.argv:
            print(table(f"{method} (OpenCV {cv2.__version__}, one thread, shadows as background)", rows))
            print()
    if "--json" in sys.argv:
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
