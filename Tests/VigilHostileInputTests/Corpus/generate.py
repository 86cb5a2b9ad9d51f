#!/usr/bin/env python3
"""Writes the hostile-input corpus and its manifest (manifest.tsv) next to this script.

Every file is small (the largest is a few KiB): the hostile part is in the headers and
structure, not the size. Run it again after editing; the test suite reads manifest.tsv.

manifest.tsv columns (tab-separated):
  file     name under Corpus/
  entry    library entry point the test feeds it to: audio, y4m, png, pngdir, json, device,
           scenario, control:zones, control:zones-update, control:triggers,
           control:event-detection-triggers, control:recording-mode, control:transport, control:audio
  limits   InputLimits overrides, e.g. maxAudioDuration=1;maxZones=10, or -
  kind     the error's kind: AudioFileError/FrameSourceError kind, the Matter status/HTTP code of a
           ControlError, the JSON path of the first device/scenario problem, or - (any); the audio
           entry accepts "nonFinite" for a file that reads fully with samples replaced and counted
  message  a piece of text the error's description must contain
"""
import json
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
rows = []


def put(name, data, entry, kind, message, limits="-"):
    path = os.path.join(HERE, name)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)
    rows.append((name, entry, limits, kind, message))


# ---------------------------------------------------------------- WAV
def wav(channels=1, rate=8000, bits=16, fmt_tag=1, frames=None, data=None, data_size=None, riff=b"RIFF", wave=b"WAVE", extra_fmt=b""):
    if data is None:
        data = b"\x00\x00" * channels * (frames if frames is not None else 16)
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", fmt_tag, channels & 0xFFFF, rate, (rate * block) & 0xFFFFFFFF, block & 0xFFFF, bits) + extra_fmt
    size = len(data) if data_size is None else data_size
    body = wave + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", size) + data
    return riff + struct.pack("<I", (len(body)) & 0xFFFFFFFF) + body


put("audio-empty.wav", b"", "audio", "empty", "file is empty")
put("audio-wrong-magic.wav", wav(riff=b"RIFX" if False else b"JUNK"), "audio", "unsupportedFormat", "not a readable audio file")
put("audio-text.wav", "this is not audio at all\n" * 4, "audio", "unsupportedFormat", "not a readable audio file")
put("audio-truncated-header.wav", wav()[:30], "audio", "unsupportedFormat", "not a readable audio file")
put("audio-zero-rate.wav", wav(rate=0), "audio", "unsupportedFormat", "not a readable audio file")
put("audio-rate-1hz.wav", wav(rate=1), "audio", "unsupportedSampleRate", "sample rate 1 Hz")
put("audio-rate-huge.wav", wav(rate=4_000_000_000), "audio", "unsupportedFormat", "not a readable audio file")
put("audio-zero-channels.wav", wav(channels=0, data=b""), "audio", "unsupportedFormat", "Channel count is zero")
put("audio-million-channels.wav", wav(channels=1_000_000, data=b"\x00" * 64), "audio", "unsupportedFormat", "Too many channels")
put("audio-65-channels.wav", wav(channels=65, frames=4), "audio", "unsupportedChannelCount", "--max-channels")
put("audio-4-channels-limit-2.wav", wav(channels=4, frames=8), "audio", "unsupportedChannelCount", "more than the limit of 2", "maxAudioChannels=2")
put("audio-bits-0.wav", wav(bits=0), "audio", "unsupportedFormat", "unimplemented format")
put("audio-bits-huge.wav", wav(bits=65535), "audio", "unsupportedFormat", "unimplemented format")
put("audio-unknown-codec.wav", wav(fmt_tag=0x7777), "audio", "unsupportedFormat", "Malformed 'fmt ' chunk")
put("audio-truncated-data.wav", wav(frames=4000)[:200], "audio", "truncated", "header declares 4000 frames")
put("audio-data-size-4gib.wav", wav(frames=16, data_size=0xFFFFFF00 - 2), "audio", "truncated", "truncated")
nan_inf = struct.pack("<4f", float("nan"), float("inf"), float("-inf"), 0.5) * 8
put("audio-nan-inf-float.wav", wav(bits=32, fmt_tag=3, data=nan_inf), "audio", "nonFinite", "24")
put("audio-declared-too-long.wav", wav(rate=8000, frames=300), "audio", "tooLong", "--max-audio-duration", "maxAudioDuration=0.02")
# A streaming WAV (data size 0xFFFFFFFF = unknown) longer than the limit: stopped while reading.
put("audio-stream-too-long.wav", wav(rate=8000, data=b"\x01\x00" * 300, data_size=0xFFFFFFFF), "audio", "tooLong", "header declares 0.038 s, longer than the 0.02 s limit", "maxAudioDuration=0.02")
put("audio-flac-garbage.flac", b"fLaC" + bytes(range(256)) * 4, "audio", "unsupportedFormat", "not a readable audio file")
put("audio-ogg-garbage.ogg", b"OggS" + b"\x00" * 23 + b"\xff" * 200, "audio", "unsupportedFormat", "not a readable audio file")
aiff_comm = struct.pack(">hIh", 1, 16, 16) + b"\x7f\xff" + b"\xff" * 8  # sample rate: 80-bit float, max exponent (infinity-like)
aiff = b"FORM" + struct.pack(">I", 4 + 8 + len(aiff_comm) + 8 + 8 + 32) + b"AIFF" + b"COMM" + struct.pack(">I", len(aiff_comm)) + aiff_comm
aiff += b"SSND" + struct.pack(">I", 8 + 32) + b"\x00" * 8 + b"\x00" * 32
put("audio-aiff-infinite-rate.aiff", aiff, "audio", "unsupportedSampleRate", "is outside the supported 8000...192000 Hz")


# ---------------------------------------------------------------- Y4M
def y4m(header, frames=1, frame_bytes=None, frame_line=b"FRAME\n"):
    out = header.encode("latin-1") + b"\n"
    for _ in range(frames):
        out += frame_line + b"\x80" * (frame_bytes if frame_bytes is not None else 0)
    return out


put("video-empty.y4m", b"", "y4m", "empty", "empty stream")
put("video-wrong-magic.y4m", y4m("YUV4MPEG3 W4 H4 F25:1 C420jpeg", frame_bytes=24), "y4m", "unsupportedFormat", "not a YUV4MPEG2 stream")
put("video-no-newline.y4m", b"YUV4MPEG2 W4 H4" + b" X" * 3000, "y4m", "unsupportedFormat", "line longer than 4096 bytes")
put("video-zero-width.y4m", y4m("YUV4MPEG2 W0 H4 F25:1"), "y4m", "unsupportedFormat", "positive width")
put("video-negative-height.y4m", y4m("YUV4MPEG2 W4 H-4 F25:1"), "y4m", "unsupportedFormat", "positive width")
put("video-absurd-size.y4m", y4m("YUV4MPEG2 W4611686018427387904 H4611686018427387904 F25:1", frame_bytes=16), "y4m", "unsupportedFormat", "absurd frame size")
put("video-over-limit.y4m", y4m("YUV4MPEG2 W20000 H20000 F25:1 C420jpeg", frame_bytes=16), "y4m", "unsupportedFormat", "--max-image-size")
put("video-over-byte-limit.y4m", y4m("YUV4MPEG2 W4000 H4000 F25:1 C444p16", frame_bytes=16), "y4m", "unsupportedFormat", "--max-image-bytes", "maxImageBytes=33554432")
put("video-zero-rate.y4m", y4m("YUV4MPEG2 W4 H4 F0:1", frame_bytes=24), "y4m", "unsupportedFormat", "bad frame rate F0:1")
put("video-rate-denominator-zero.y4m", y4m("YUV4MPEG2 W4 H4 F25:0", frame_bytes=24), "y4m", "unsupportedFormat", "bad frame rate")
put("video-rate-garbage.y4m", y4m("YUV4MPEG2 W4 H4 Fnan:inf", frame_bytes=24), "y4m", "unsupportedFormat", "bad frame rate")
put("video-bad-colour.y4m", y4m("YUV4MPEG2 W4 H4 F25:1 C411", frame_bytes=24), "y4m", "unsupportedFormat", "unsupported colour space C411")
put("video-colour-depth-99.y4m", y4m("YUV4MPEG2 W4 H4 F25:1 C420p99", frame_bytes=24), "y4m", "unsupportedFormat", "unsupported colour space")
put("video-truncated-frame.y4m", y4m("YUV4MPEG2 W16 H16 F25:1 C420jpeg", frame_bytes=100), "y4m", "truncated", "expected 384 bytes")
put("video-bad-frame-marker.y4m", y4m("YUV4MPEG2 W4 H4 F25:1 C420jpeg", frame_bytes=24, frame_line=b"FRAMX\n"), "y4m", "unsupportedFormat", "expected a FRAME marker")
put("video-header-invalid-utf8.y4m", b"YUV4MPEG2 W4 H4 F25:1 C\xff\xfe\n" + b"FRAME\n" + b"\x80" * 24, "y4m", "unsupportedFormat", "unsupported colour space")
put("video-header-only-truncated.y4m", b"YUV4MPEG2 W4 H4 F25:1 C420jpeg\nFRA", "y4m", "truncated", "ends inside a header or FRAME line")


# ---------------------------------------------------------------- PNG
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


SIG = b"\x89PNG\r\n\x1a\n"


def png(width, height, color=2, depth=8, idat=None, extra=b"", iend=True):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color, 0, 0, 0)
    if idat is None:
        channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
        raw = b"".join(b"\x00" + b"\x40" * (width * channels * depth // 8) for _ in range(height))
        idat = zlib.compress(raw)
    out = SIG + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", idat)
    return out + (chunk(b"IEND", b"") if iend else b"")


put("image-empty.png", b"", "png", "-", "empty file")
put("image-wrong-magic.png", b"\x89PNX\r\n\x1a\n" + png(2, 2)[8:], "png", "-", "bad signature")
put("image-jpeg-named-png.png", b"\xff\xd8\xff\xe0" + b"\x00" * 60, "png", "-", "bad signature")
put("image-truncated-ihdr.png", png(2, 2)[:20], "png", "-", "read beyond end of data")
put("image-bad-crc.png", png(2, 2)[:29] + b"\x00\x00\x00\x00" + png(2, 2)[33:], "png", "-", "IHDR: CRC error")
put("image-zero-size.png", png(0, 0, idat=zlib.compress(b"")), "png", "-", "Invalid IHDR data")
# Decompression bombs: a huge declared size with a few hundred bytes of zlib data.
bomb_rows = zlib.compress(b"\x00" * (1 << 20), 9)
put("image-bomb-100000x100000.png", png(100_000, 100_000, idat=bomb_rows), "png", "-", "larger than the 16384x16384 limit")
put("image-bomb-16384x16384-rgba.png", png(16_384, 16_384, color=6, idat=bomb_rows), "png", "-", "--max-image-bytes")
put("image-bomb-limit-1000.png", png(2000, 2000, color=0, idat=bomb_rows), "png", "-", "--max-image-size", "maxImageWidth=1000;maxImageHeight=1000")
put("image-max-uint32.png", png(0xFFFFFFFF, 0xFFFFFFFF, idat=bomb_rows), "png", "-", "out of range")
put("image-idat-garbage.png", png(4, 4, idat=b"\x78\x9c" + b"\xff" * 40), "png", "-", "IDAT: invalid block type")
put("image-no-idat.png", SIG + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0)) + chunk(b"IEND", b""), "png", "-", "IEND: out of place")
put("image-palette-missing-plte.png", png(4, 4, color=3), "png", "-", "Missing PLTE before IDAT")
put("image-bad-depth.png", png(4, 4, color=2, depth=7, idat=zlib.compress(b"\x00" * 64)), "png", "-", "Invalid IHDR data")
# A zTXt text bomb (1 MiB of text from 1 KiB) on a valid 4x4 image: decodes, text ignored.
ztxt = chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"A" * (1 << 20), 9))
put("image-ztxt-bomb.png", png(4, 4, extra=ztxt), "png", "ok", "4x4")


# ---------------------------------------------------------------- JSON documents
def deep(n):
    return "[" * n + "]" * n


put("json-deep-20k.json", deep(20_000), "json", "-", "nesting deeper than 64 levels")
put("json-deep-objects.json", '{"a":' * 70 + "1" + "}" * 70, "json", "-", "nesting deeper than 64 levels")
put("json-too-large.json", '{"pad":"' + "x" * 5000 + '"}', "json", "-", "--max-json-bytes", "maxJSONBytes=4096")
put("json-nan.json", '{"x": NaN}', "json", "-", "line 1, column 7")
put("json-infinity.json", '{"x": Infinity}', "json", "-", "line 1, column 7")
put("json-huge-number.json", '{"x": 1e400}', "json", "-", "number out of range")
put("json-invalid-utf8.json", b'{"name": "\xc3\x28"}', "json", "-", "invalid UTF-8")
put("json-lone-surrogate.json", '{"name": "\\ud800"}', "json", "-", "unpaired UTF-16 surrogate")
put("json-trailing.json", '{"a":1} {"b":2}', "json", "-", "unexpected content after the JSON value")
put("json-truncated.json", '{"name": "cam", "zones": [', "json", "-", "unexpected end of input")
put("json-control-char.json", b'{"name": "a\x01b"}', "json", "-", "unescaped control character")


# ---------------------------------------------------------------- Device files
def zone(zid, vertices, name=None, use="motion"):
    return {"zoneID": zid, "name": name if name is not None else "Zone %d" % zid, "use": use,
            "vertices": [{"x": x, "y": y} for x, y in vertices]}


square = [(0, 0), (100, 0), (100, 100), (0, 100)]


def device(**members):
    d = {"name": "hostile"}
    d.update(members)
    return json.dumps(d)


put("device-empty.json", b"", "device", "", "unexpected end of input")
put("device-array-root.json", "[]", "device", "", "expected an object")
put("device-deep.json", '{"name":"x","zones":' + deep(200) + "}", "device", "", "nesting deeper than 64 levels")
put("device-too-large.json", device(name="x" * 9000), "device", "", "--max-json-bytes", "maxJSONBytes=8192")
put("device-self-intersecting-zone.json", device(zones=[zone(1, [(0, 0), (100, 100), (100, 0), (0, 100)])]), "device", "zones[0].vertices", "intersect")
put("device-duplicate-zone-ids.json", device(zones=[zone(1, square), zone(1, [(200, 200), (300, 200), (300, 300)])]), "device", "zones[1].zoneID", "already used")
put("device-duplicate-vertex.json", device(zones=[zone(1, [(0, 0), (10, 0), (10, 10), (0, 0)])]), "device", "zones[0].vertices", "vertices 0 and 3 are the same point")
put("device-collinear-triangle.json", device(zones=[zone(1, [(0, 0), (2, 0), (1, 0)])]), "device", "zones[0].vertices", "the 3 vertices are collinear")
put("device-13-vertices.json", device(zones=[zone(1, [(i, (i * 7) % 13) for i in range(13)])]), "device", "zones[0].vertices", "13 vertices, expected 3...12")
put("device-10k-vertices.json", '{"name":"x","zones":[{"zoneID":1,"name":"z","use":"motion","vertices":[' + ",".join(["{}"] * 10_000) + "]}]}",
    "device", "zones[0].vertices", "10000 vertices")
put("device-two-vertices.json", device(zones=[zone(1, [(0, 0), (5, 5)])]), "device", "zones[0].vertices", "2 vertices")
put("device-vertex-beyond-max.json", device(zones=[zone(1, [(0, 0), (5000, 0), (0, 10)])]), "device", "zones[0].vertices[1].x", "5000 exceeds twoDCartesianMax.x 2048")
put("device-negative-vertex.json", device(zones=[zone(1, [(-1, 0), (10, 0), (0, 10)])]), "device", "zones[0].vertices[0].x", "out of range")
put("device-huge-number.json", device(maxUserDefinedZones=1e300), "device", "maxUserDefinedZones", "1e+300 is out of range")
put("device-fractional-id.json", device(zones=[zone(1.5, square)]), "device", "zones[0].zoneID", "expected an integer")
put("device-zone-id-65536.json", device(zones=[zone(65536, square)]), "device", "zones[0].zoneID", "out of range 0...65535")
put("device-invalid-utf8-name.json", b'{"name":"cam","zones":[{"zoneID":1,"name":"\xff\xfe","use":"motion","vertices":[{"x":0,"y":0},{"x":9,"y":0},{"x":0,"y":9}]}]}',
    "device", "", "invalid UTF-8")
put("device-long-zone-name.json", device(zones=[zone(1, square, name="N" * 33)]), "device", "zones[0].name", "33 characters")
put("device-max-zones-over-limit.json", device(maxUserDefinedZones=5, maxZones=1000), "device", "maxZones", "--max-zones")
put("device-zones-over-limit.json", device(maxUserDefinedZones=5, maxZones=10, zones=[zone(i, [(i, 0), (i + 1, 0), (i, 1)]) for i in range(1, 13)]),
    "device", "zones", "12 entries, more than the limit of 10 zones", "maxZones=10")
put("device-too-many-zones-for-device.json", device(zones=[zone(i, [(i, 0), (i + 1, 0), (i, 1)]) for i in range(1, 12)]), "device", "zones[8]", "already 8 user zones, maxUserDefinedZones is 8")
put("device-zero-grid.json", device(twoDCartesianMax={"x": 0, "y": 0}), "device", "twoDCartesianMax.x", "out of range")
put("device-sensitivity-11.json", device(sensitivity=11), "device", "sensitivity", "out of range")
put("device-trigger-unknown-zone.json", device(triggers=[{"zoneID": 9, "initialDuration": 10}]), "device", "triggers[0].zoneID", "no zone with ID 9")
put("device-duplicate-key.json", '{"name":"a","name":"b"}', "device", "", "duplicate key")
put("device-unknown-recording-mode.json", device(recordingMode={"supportedRecordingModes": [{"recordingMode": "forever", "maxDuration": 10}]}), "device", "recordingMode.supportedRecordingModes[0].recordingMode", 'unknown value "forever"')


# ---------------------------------------------------------------- Scenario files
def scenario(**members):
    d = {"sampleRate": 16000, "duration": 5, "items": []}
    d.update(members)
    return json.dumps(d)


put("scenario-zero-rate.json", scenario(sampleRate=0), "scenario", "sampleRate", "out of range 8000...192000")
put("scenario-huge-duration.json", scenario(duration=1e300), "scenario", "duration", "out of range")
put("scenario-negative-duration.json", scenario(duration=-1), "scenario", "duration", "out of range")
put("scenario-nan.json", '{"sampleRate": 16000, "duration": NaN, "items": []}', "scenario", "", "line 1, column 35: expected a value, got 'N'")
put("scenario-deep.json", '{"sampleRate":16000,"duration":5,"items":' + deep(100) + "}", "scenario", "", "nesting deeper than 64 levels")
put("scenario-items-not-array.json", scenario(items={"type": "tone"}), "scenario", "items", "expected an array")
put("scenario-unknown-item.json", scenario(items=[{"type": "explosion", "start": 0}]), "scenario", "items[0].type", 'got "explosion"')
put("scenario-tone-above-nyquist.json", scenario(items=[{"type": "tone", "start": 0, "duration": 1, "frequency": 50000}]), "scenario", "items[0].frequency", "is not below the Nyquist frequency 8000 Hz")


# ---------------------------------------------------------------- Control request bodies
put("control-zone-self-intersecting.json", json.dumps({"name": "x", "use": "motion", "vertices": [{"x": 0, "y": 0}, {"x": 100, "y": 100}, {"x": 100, "y": 0}, {"x": 0, "y": 100}]}),
    "control:zones", "DynamicConstraintError/422", "intersect")
put("control-zone-deep.json", '{"name":"x","use":' + deep(40) + "}", "control:zones", "InvalidCommand/400", "--max-body-depth")
put("control-zone-zone-id.json", json.dumps({"zoneID": 7, "name": "x", "use": "motion", "vertices": []}), "control:zones", "InvalidCommand/400", "zoneID")
put("control-zone-huge-vertex.json", json.dumps({"name": "x", "use": "motion", "vertices": [{"x": 1e20, "y": 0}, {"x": 1, "y": 0}, {"x": 0, "y": 1}]}),
    "control:zones", "ConstraintError/422", "out of range")
put("control-zone-not-object.json", "[1,2,3]", "control:zones", "InvalidCommand/400", "expected a zone object")
put("control-zone-empty.json", b"", "control:zones", "InvalidCommand/400", "empty request body")
put("control-zone-invalid-utf8.json", b'{"name":"\xc0\xaf","use":"motion","vertices":[]}', "control:zones", "InvalidCommand/400", "invalid UTF-8")
put("control-zone-update-unknown.json", json.dumps({"name": "x", "use": "motion", "vertices": [{"x": 0, "y": 0}, {"x": 9, "y": 0}, {"x": 0, "y": 9}]}),
    "control:zones-update", "NotFound/404", "no zone with ID 77")
put("control-trigger-unknown-zone.json", json.dumps({"zoneID": 42, "initialDuration": 10}), "control:triggers", "NotFound/404", "zoneID: no zone with ID 42")
put("control-trigger-nan-duration.json", '{"zoneID": 1, "initialDuration": NaN}', "control:triggers", "InvalidCommand/400", "invalid JSON")
put("control-edt-unknown-trigger.json", json.dumps([{"eventTriggerType": "earthquake", "enablementStatus": "enabled"}]), "control:event-detection-triggers", "ConstraintError/422", 'unknown trigger "earthquake"')
put("control-recording-mode-huge.json", json.dumps({"selectedRecordingMode": 1e18}), "control:recording-mode", "ConstraintError/422", "selectedRecordingMode: index 1000000000000000000 is outside supportedRecordingModes")
put("control-transport-wrong-type.json", json.dumps({"status": 12}), "control:transport", "InvalidCommand/400", "status: unknown key")
put("control-audio-unknown-key.json", json.dumps({"microphoneMuted": True, "volume": 11}), "control:audio", "InvalidCommand/400", "volume")

# ---------------------------------------------------------------- PNG frame directories
os.makedirs(os.path.join(HERE, "frames-mixed"), exist_ok=True)
with open(os.path.join(HERE, "frames-mixed", "frame-0001.png"), "wb") as f:
    f.write(png(4, 4))
with open(os.path.join(HERE, "frames-mixed", "frame-0002.png"), "wb") as f:
    f.write(png(100_000, 4, idat=bomb_rows))
rows.append(("frames-mixed", "pngdir", "-", "decodeFailed", "frame-0002.png: frame 1: image is 100000x4"))

# ---------------------------------------------------------------- media containers (libavformat)
# Small valid containers made by the ffmpeg command are the fuzz seeds in Fuzz/Corpus/FuzzMediaContainer;
# these are cut or damaged copies of them, and hand-made headers.
SEEDS = os.path.join(HERE, "..", "..", "..", "Fuzz", "Corpus", "FuzzMediaContainer")


def seed(name):
    with open(os.path.join(SEEDS, name), "rb") as f:
        return f.read()


def box(kind, payload, size=None):
    return struct.pack(">I", size if size is not None else 8 + len(payload)) + kind + payload


def lcg_bytes(n, state=12345):
    out = bytearray()
    for _ in range(n):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        out.append(state >> 16 & 0xFF)
    return bytes(out)


ftyp = box(b"ftyp", b"isom" + struct.pack(">I", 512) + b"isomiso2avc1mp41")
put("media-empty.mp4", b"", "media", "invalidData", "cannot open")
put("media-text.mp4", "this is not a video\n" * 50, "media", "invalidData", "cannot open: Invalid data found when processing input")
put("media-garbage.bin", lcg_bytes(8192), "media", "invalidData", "cannot open")
put("media-moov-cut.mp4", ftyp + box(b"moov", b"\x00" * 40, size=100_000), "media", "noStreams", "no audio or video stream")
put("media-mdat-only.mp4", ftyp + box(b"mdat", lcg_bytes(2000)), "media", "invalidData", "cannot open")
faststart = seed("h264-aac-faststart.mp4")
put("media-truncated-faststart.mp4", faststart[: len(faststart) * 6 // 10], "media", "readFailed", "truncated")
tail_index = seed("h264-aac.mp4")
put("media-truncated-tail-index.mp4", tail_index[: len(tail_index) * 6 // 10], "media", "invalidData", "cannot open")
put("media-ebml-garbage.mkv", b"\x1a\x45\xdf\xa3" + lcg_bytes(3000, 777), "media", "invalidData", "cannot open")
put("media-ts-null-packets.ts", (b"\x47\x1f\xff\x10" + b"\xff" * 184) * 40, "media", "invalidData", "cannot read the stream parameters")
hevc = seed("hevc.mkv")
assert b"V_MPEGH/ISO/HEVC" in hevc
put("media-undecodable-codec.mkv", hevc.replace(b"V_MPEGH/ISO/HEVC", b"V_VIGIL/NO/SUCHX"), "media", "unsupportedCodec", "no decoder for codec none")

with open(os.path.join(HERE, "manifest.tsv"), "w") as f:
    f.write("# file\tentry\tlimits\tkind\tmessage (written by generate.py)\n")
    for row in rows:
        f.write("\t".join(row) + "\n")
print(f"{len(rows)} corpus entries")
