#!/usr/bin/env python3
"""Synthesizes Samples/demo-frames/: 30 PNG frames (128 x 72, RGB, 10 fps) for
`vigil analyze --frames Samples/demo-frames --fps 10 --device Samples/front-door.json`.

A still porch scene (gradient wall, floor, a window); from frame 8 a figure walks across the
porch (zone 1 "Porch" of front-door.json, grid y >= 1200), and throughout, a light blinks and a
shape moves inside the "Street window" privacy zone (grid x 1500...2000, y 100...500), which
must never be reported and is black in snapshots. Pure Python (zlib), deterministic.
"""
import os
import struct
import zlib

W, H, FRAMES = 128, 72, 30
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo-frames")


def png(path, rows):
    raw = b"".join(b"\x00" + bytes(row) for row in rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def grid_to_px(gx, gy):
    return gx * (W - 1) / 2048, gy * (H - 1) / 2048


def frame(i):
    rows = []
    wx0, wy0 = grid_to_px(1500, 100)
    wx1, wy1 = grid_to_px(2000, 500)
    floor_y = grid_to_px(0, 1200)[1]
    for y in range(H):
        row = []
        for x in range(W):
            if y >= floor_y:
                v = (110 + (x * 3 + y * 5) % 23, 90 + (x * 3 + y * 5) % 23, 70)
            else:
                v = (150 + x // 4, 150 + x // 5, 160 + y // 3)
            if wx0 <= x <= wx1 and wy0 <= y <= wy1:
                lit = 200 if i % 6 < 3 else 60  # blinking light behind the window
                v = (lit, lit, lit // 2)
                sx = wx0 + (i * 2) % max(1, int(wx1 - wx0))
                if sx <= x <= sx + 5:
                    v = (20, 20, 90)  # a passer-by in the street
            row.extend(v)
        rows.append(row)
    if i >= 8:  # the walker: 8 x 22 px, feet on the porch floor
        left = 4 + (i - 8) * 5
        for y in range(int(floor_y) - 6, min(H, int(floor_y) + 16)):
            for x in range(max(0, left), min(W, left + 8)):
                rows[y][3 * x: 3 * x + 3] = [30, 40, 90]
    return rows


os.makedirs(OUT, exist_ok=True)
for i in range(FRAMES):
    png(os.path.join(OUT, "frame-%03d.png" % i), frame(i))
