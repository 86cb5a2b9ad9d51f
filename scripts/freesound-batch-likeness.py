#!/usr/bin/env python3
"""How alike the development set's isolated bark recordings are, pair by pair, and where the pairs of
Freesound uploads a few ids apart rank among them (docs/sound-models.md, "Cross-validation": why
Freesound uploads at most two ids apart are one group).

Each `iso_dog_ID-*.flac` of ../shared/data/dev/audio is decoded by ffmpeg at 44.1 kHz; its bark frames
(the loudest 10 % of 2048-sample Hann frames, hop 1024) give a mean log spectrum over 30 bands spaced
evenly in log frequency from 150 Hz to 8 kHz, less its mean (the shape, not the level). Pairs are
ranked by the cosine similarity of their shapes, most alike first.

Usage: scripts/freesound-batch-likeness.py [AUDIO_DIR]   (needs numpy and ffmpeg)
"""
import glob
import os
import subprocess
import sys

import numpy as np

RATE, FRAME, HOP, BANDS = 44100, 2048, 1024, 30


def shape(path):
    raw = subprocess.run(
        ["ffmpeg", "-v", "quiet", "-i", path, "-ac", "1", "-ar", str(RATE), "-f", "f32le", "-"],
        capture_output=True, check=True).stdout
    x = np.frombuffer(raw, dtype=np.float32)
    frames = np.lib.stride_tricks.sliding_window_view(x, FRAME)[::HOP] * np.hanning(FRAME)
    power = np.abs(np.fft.rfft(frames, axis=1)) ** 2 + 1e-12
    energy = power.sum(1)
    loud = power[energy >= np.quantile(energy, 0.9)]
    freqs = np.fft.rfftfreq(FRAME, 1 / RATE)
    edges = np.geomspace(150, 8000, BANDS + 1)
    bands = np.array([loud[:, (freqs >= edges[i]) & (freqs < edges[i + 1])].sum(1) for i in range(BANDS)]).T
    v = np.log10(bands + 1e-12).mean(0)
    return v - v.mean()


def main():
    audio = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/dev/audio"
    files = sorted(glob.glob(os.path.join(audio, "iso_dog_*.flac")))
    if not files:
        sys.exit(f"{audio}: no iso_dog_*.flac files")
    shapes = {int(os.path.basename(f).split("_")[2].split("-")[0]): shape(f) for f in files}
    ids = sorted(shapes)
    pairs = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            u, v = shapes[a], shapes[b]
            pairs.append((float(u @ v / np.linalg.norm(u) / np.linalg.norm(v)), a, b))
    pairs.sort(reverse=True)
    print(f"{len(ids)} recordings, {len(pairs)} pairs; median similarity {np.median([p[0] for p in pairs]):.3f}")
    print("pairs at most 2 ids apart (rank of 1 = most alike):")
    for rank, (similarity, a, b) in enumerate(pairs, start=1):
        if b - a <= 2:
            print(f"  {a} {b}: similarity {similarity:.3f}, rank {rank}")


if __name__ == "__main__":
    main()
