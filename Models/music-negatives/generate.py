"""Writes the generated music that dogBark trains on as negatives (see README.md).

Usage: python3 generate.py OUT_DIR COUNT [SEED]   (the committed files: generate.py . 40 1; needs mido)
Each piece is 20 s: a random key, tempo and meter, a chord progression, a melody over an
accompaniment, bass and drums in some, on General MIDI instruments. Deterministic for a seed.
"""
import mido, random, sys, os
out = sys.argv[1]; n = int(sys.argv[2]); seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
os.makedirs(out, exist_ok=True)
rng = random.Random(seed)
LEADS = [0,1,4,6,8,10,11,13,21,22,24,25,26,40,41,42,56,57,60,64,65,66,68,71,73,74,75,79,80,81,105,109]
COMPS = [0,1,2,4,5,16,17,19,21,24,25,27,46,48,49,50,88,89,11,8]
BASSES = [32,33,34,35,36,38,42,43,58]
MAJOR = [0,2,4,5,7,9,11]; MINOR = [0,2,3,5,7,8,10]
PROGS = [[0,4,5,3],[0,3,4,0],[1,4,0,0],[0,5,3,4],[5,3,0,4],[0,3,0,4],[0,0,3,4],[0,6,5,4]]
def chord(scale, root, deg):
    return [root + scale[(deg + k) % 7] + 12 * ((deg + k) // 7) for k in (0, 2, 4)]
for i in range(n):
    mid = mido.MidiFile(ticks_per_beat=480)
    tpb = 480
    bpm = rng.uniform(60, 180); meter = rng.choice([3, 4, 4, 6])
    scale = rng.choice([MAJOR, MINOR]); root = rng.randint(48, 60)
    prog = rng.choice(PROGS); seconds = 20.0
    beats = int(seconds * bpm / 60) + 2
    bars = beats // meter + 1
    style = rng.choice(["full", "full", "solo", "duo", "pad"])
    tempo = mido.bpm2tempo(bpm)
    events = []  # (tick, type, ch, note/prog, vel)
    def prog_change(ch, p): events.append((0, 'program_change', ch, p, 0))
    def note(ch, t, dur, n, v):
        if 0 <= n < 128:
            events.append((int(t), 'note_on', ch, n, max(1, min(127, int(v)))))
            events.append((int(t + max(20, dur)), 'note_off', ch, n, 0))
    lead = rng.choice(LEADS); comp = rng.choice(COMPS); bass = rng.choice(BASSES)
    prog_change(0, lead); prog_change(1, comp); prog_change(2, bass)
    vel_base = rng.randint(50, 110)
    # melody: random walk over the scale
    if style != "pad":
        t = 0; deg = rng.randint(7, 11); total = bars * meter * tpb
        durs = [tpb // 2, tpb, tpb, tpb * 3 // 2, tpb * 2, tpb // 4] if rng.random() < 0.7 else [tpb // 4, tpb // 2, tpb // 2]
        legato = rng.uniform(0.3, 1.0)
        while t < total:
            d = rng.choice(durs)
            if rng.random() < 0.12:
                t += d; continue
            deg = max(0, min(20, deg + rng.choice([-2, -1, -1, 0, 1, 1, 2, 3, -3])))
            n_ = root + 12 + scale[deg % 7] + 12 * (deg // 7)
            note(0, t, d * legato, n_, vel_base + rng.randint(-15, 15))
            t += d
    if style in ("full", "duo", "pad", "solo"):
        comp_style = rng.choice(["block", "waltz", "arp", "pad"]) if style != "pad" else "pad"
        for b in range(bars):
            deg = prog[b % len(prog)]
            c = chord(scale, root, deg)
            t0 = b * meter * tpb
            v = vel_base - rng.randint(5, 25)
            if comp_style == "pad":
                for n_ in c: note(1, t0, meter * tpb * 0.98, n_, v)
            elif comp_style == "block":
                for k in range(meter):
                    for n_ in c: note(1, t0 + k * tpb, tpb * rng.uniform(0.3, 0.9), n_, v)
            elif comp_style == "waltz":
                note(1, t0, tpb * 0.8, c[0] - 12, v + 5)
                for k in range(1, meter):
                    for n_ in c[1:]: note(1, t0 + k * tpb, tpb * 0.5, n_ + 12, v - 5)
            else:
                seq = c + [c[0] + 12, c[1] + 12]
                for k in range(meter * 2):
                    note(1, t0 + k * tpb // 2, tpb // 2, seq[k % len(seq)], v)
            if style == "full":
                note(2, t0, meter * tpb * 0.45, root - 12 + scale[deg], v + 10)
                if meter >= 4: note(2, t0 + 2 * tpb, tpb * 0.9, root - 12 + scale[(deg + 4) % 7], v + 5)
        if style == "full" and rng.random() < 0.6:
            for b in range(bars):
                t0 = b * meter * tpb
                for k in range(meter):
                    if k == 0: note(9, t0, 100, 36, 100)
                    if k % 2 == 1: note(9, t0 + k * tpb, 100, rng.choice([38, 40, 39]), 90)
                    note(9, t0 + k * tpb, 60, 42, 60); note(9, t0 + k * tpb + tpb // 2, 60, rng.choice([42, 46]), 50)
    tr = mido.MidiTrack(); mid.tracks.append(tr)
    tr.append(mido.MetaMessage('set_tempo', tempo=tempo))
    events.sort(key=lambda e: (e[0], 0 if e[1] == 'program_change' else (1 if e[1] == 'note_off' else 2)))
    last = 0
    end_tick = int(seconds * bpm / 60 * tpb)
    for (t, typ, ch, a, v) in events:
        if t > end_tick:
            if typ != 'note_off': continue
            t = end_tick
        dt = t - last; last = t
        if typ == 'program_change': tr.append(mido.Message('program_change', channel=ch, program=a, time=dt))
        else: tr.append(mido.Message(typ, channel=ch, note=a, velocity=v, time=dt))
    for ch in range(16): tr.append(mido.Message('control_change', channel=ch, control=123, value=0, time=0))
    tr.append(mido.MetaMessage('end_of_track', time=tpb))
    mid.save(os.path.join(out, f"music_{i:03d}.mid"))
    print(i, style, f"bpm {bpm:.0f}", "lead", lead, "comp", comp, file=sys.stderr)
