#!/usr/bin/python3
"""Extra personTalking training positives: single words of other voices, as short recordings.

Usage: generate.py QABCS_ABCS_DIR OUT_DIR [COUNT] [SEED]

QABCS_ABCS_DIR is /usr/share/qabcs/abcs of Debian's qabcs-data (GPL-3+): spoken words and letters
in eight languages (be, de, en, en_gb, fr, pl, ru, uk). `make training-words` downloads that
package into .build (it is never installed or copied into the project) and runs this script with
Debian's python3-numpy and python3-soundfile. Deterministic: the same inputs, COUNT and SEED give
the same files.

Each of COUNT files (default 48, seed 7) holds 1-3 words of one language, 0.8-2 s apart, from 1 s
on, with 1 s after the last. Two files in three are isolated words over a quiet room tone (colored
noise, -66 to -54 dBFS, words at -42 to -28 dBFS RMS), as the development set's isolated clips; the
third over louder colored noise (-40 to -28 dBFS) at 3 to 20 dB SNR, as speech in a scene. Every
other file has its words band-limited to 3.9 kHz, as in a recording made at 8 kHz (the spoken-digit
clips of the development set are). Each word is trimmed to its frames within 35 dB of its loudest
10 ms; labels.tsv gives its span (DCASE: file, onset, offset, personTalking).
"""
import glob
import os
import sys

import numpy as np
import soundfile as sf

SR = 44100
LANGUAGES = ['be', 'de', 'en', 'en_gb', 'fr', 'pl', 'ru', 'uk']


def load(path):
    x, sr = sf.read(path, always_2d=True)
    x = x.mean(1)
    if sr != SR:
        t = np.arange(int(len(x) * SR / sr)) / SR
        x = np.interp(t, np.arange(len(x)) / sr, x)
    return x


def trim(x):
    n = 441
    frames = np.array([np.sqrt(np.mean(x[i:i + n] ** 2)) + 1e-9 for i in range(0, len(x) - n, n)])
    db = 20 * np.log10(frames)
    active = np.where(db > db.max() - 35)[0]
    return x[active[0] * n:(active[-1] + 1) * n]


def band_limited(x):
    spectrum = np.fft.rfft(x)
    spectrum[np.fft.rfftfreq(len(x), 1 / SR) > 3900] = 0
    return np.fft.irfft(spectrum, len(x))


def colored_noise(rng, n, slope):
    spectrum = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n, 1 / SR)
    f[0] = f[1]
    y = np.fft.irfft(spectrum / f ** (slope / 2), n)
    return y / np.sqrt(np.mean(y ** 2))


def main():
    root, out = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 48
    rng = np.random.default_rng(int(sys.argv[4]) if len(sys.argv) > 4 else 7)
    clips = {}
    for lang in LANGUAGES:
        clips[lang] = sorted(glob.glob(f'{root}/{lang}/sounds/words/*.ogg') + glob.glob(f'{root}/{lang}/sounds/alpha/*.ogg'))
        if not clips[lang]:
            sys.exit(f'generate.py: no words of language {lang} under {root}')
    os.makedirs(out, exist_ok=True)
    labels = []
    for k in range(count):
        lang = LANGUAGES[k % len(LANGUAGES)]
        picks = rng.choice(len(clips[lang]), size=rng.integers(1, 4), replace=False)
        words = [trim(load(clips[lang][i])) for i in picks]
        if k % 2 == 1:
            words = [band_limited(w) for w in words]
        isolated = k % 3 != 2
        seconds = 1.0 + sum(len(w) / SR + rng.uniform(0.8, 2.0) for w in words) + 1.0
        n = int(seconds * SR)
        if isolated:
            bed = colored_noise(rng, n, rng.uniform(1.0, 2.0)) * 10 ** (rng.uniform(-66, -54) / 20)
        else:
            bed = colored_noise(rng, n, rng.uniform(0.0, 2.0)) * 10 ** (rng.uniform(-40, -28) / 20)
        y = bed.copy()
        t = 1.0
        name = f'word_{k:03d}.wav'
        for w in words:
            rms = np.sqrt(np.mean(w ** 2))
            if isolated:
                gain = 10 ** (rng.uniform(-42, -28) / 20) / rms
            else:
                gain = np.sqrt(np.mean(bed ** 2)) * 10 ** (rng.uniform(3, 20) / 20) / rms
            i = int(t * SR)
            y[i:i + len(w)] += w * gain
            labels.append(f'{name}\t{t:.3f}\t{t + len(w) / SR:.3f}\tpersonTalking')
            t += len(w) / SR + rng.uniform(0.8, 2.0)
        peak = np.abs(y).max()
        if peak > 0.9:
            y *= 0.9 / peak
        sf.write(os.path.join(out, name), y.astype(np.float32), SR, subtype='PCM_16')
    with open(os.path.join(out, 'labels.tsv'), 'w') as f:
        f.write('\n'.join(labels) + '\n')
    print(f'{len(labels)} words in {count} files in {out}')


if __name__ == '__main__':
    main()
