#!/usr/bin/env python3
"""Synthesizes Samples/demo-scene.flac: 40 s, 16 kHz mono, made entirely by this script
(no third-party audio), so it may be redistributed with the project (CC0).

Timeline (seconds):
   0-40  room noise (brown-ish noise, about -52 dBFS)
   3.0   three door knocks (short filtered noise bursts, about -14 dBFS)
  10.0   a 1 kHz appliance beep, 1 s long (about -18 dBFS)
  18.0   a T3 smoke alarm at 3.15 kHz: 0.5 s on / 0.5 s off x3 with the third off 1.5 s (cycle 4 s), 4 cycles (until 32.5)

Run:  python3 Samples/make_demo_scene.py && sox Samples/demo-scene.wav Samples/demo-scene.flac
"""
import math, random, struct, wave, os

RATE = 16000
DUR = 40.0
N = int(RATE * DUR)
rng = random.Random(20261122)
x = [0.0] * N

# Room noise: leaky-integrated white noise (brown-ish), normalised to about -52 dBFS RMS.
acc = 0.0
noise = []
for i in range(N):
    acc = 0.98 * acc + rng.gauss(0, 1)
    noise.append(acc)
rms = math.sqrt(sum(v * v for v in noise) / N)
g = 10 ** (-52 / 20) / rms
for i in range(N):
    x[i] += noise[i] * g

def fade(j, n, r):
    r = min(r, n // 2)
    if j < r: return 0.5 - 0.5 * math.cos(math.pi * j / r)
    if j >= n - r: return 0.5 - 0.5 * math.cos(math.pi * (n - 1 - j) / r)
    return 1.0

def add_tone(t0, dur, freq, dbfs):
    a = 10 ** (dbfs / 20) * math.sqrt(2)
    s = int(t0 * RATE); n = int(dur * RATE)
    for j in range(n):
        x[s + j] += a * fade(j, n, 80) * math.sin(2 * math.pi * freq * j / RATE)

def add_knock(t0, dbfs):
    s = int(t0 * RATE); n = int(0.06 * RATE)
    a = 10 ** (dbfs / 20)
    lp = 0.0
    for j in range(n):
        lp = 0.7 * lp + 0.3 * rng.gauss(0, 1)
        x[s + j] += a * 2.5 * lp * math.exp(-j / (0.012 * RATE))

for k in range(3):
    add_knock(3.0 + 0.35 * k, -14)
add_tone(10.0, 1.0, 1000, -18)
t = 18.0
for cycle in range(4):
    for p in range(3):
        add_tone(t, 0.5, 3150, -20)
        t += 0.5 + (1.5 if p == 2 else 0.5)  # third off phase 1.5 s: cycle 4.0 s

peak = max(abs(v) for v in x)
assert peak < 1.0, peak
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "demo-scene.wav")
with wave.open(out, "wb") as w:
    w.setnchannels(1); w.setsampwidth(2); w.setframerate(RATE)
    w.writeframes(b"".join(struct.pack("<h", int(round(v * 32767))) for v in x))
print("wrote", out)
