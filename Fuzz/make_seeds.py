#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets (Fuzz/Corpus/<Target>/).

Run from Fuzz/: python3 make_seeds.py. Every seed is small and synthetic; the device-file seeds
also take Samples/front-door.json. AIFF/FLAC seeds need sox (skipped when absent).
"""
import os, shutil, struct, subprocess, wave, zlib

def out(target, name, data):
    os.makedirs(f"Corpus/{target}", exist_ok=True)
    with open(f"Corpus/{target}/{name}", "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

# PNG ------------------------------------------------------------------------------------------
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

def png(width, height, depth, colour, rows, interlace=0, extra=b""):
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    raw = b"".join(b"\x00" + r for r in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

out("FuzzPNG", "gray8.png", png(4, 4, 8, 0, [bytes([x * 60 + y for x in range(4)]) for y in range(4)]))
out("FuzzPNG", "gray1.png", png(8, 2, 1, 0, [b"\xaa", b"\x55"]))
out("FuzzPNG", "rgb8.png", png(3, 2, 8, 2, [bytes(range(9)), bytes(range(9, 18))]))
out("FuzzPNG", "rgba16.png", png(2, 2, 16, 6, [bytes(range(16)), bytes(range(16, 32))]))
out("FuzzPNG", "grayalpha8.png", png(2, 2, 8, 4, [b"\x10\xff\x20\x80", b"\x30\x00\x40\x40"]))
palette = chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])) + chunk(b"tRNS", b"\xff\x80")
out("FuzzPNG", "palette2.png", png(4, 2, 2, 3, [b"\x1b", b"\xe4"], extra=palette))
out("FuzzPNG", "rgb8-interlaced.png", png(5, 5, 8, 2, [bytes(range(i, i + 15)) for i in range(5)], interlace=1))
gamma = chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"sRGB", b"\x00")
out("FuzzPNG", "gray16-gamma.png", png(2, 1, 16, 0, [b"\x12\x34\xfe\xdc"], extra=gamma))

# Y4M ------------------------------------------------------------------------------------------
def y4m(header, frames, frame_bytes):
    return (header + "\n").encode() + b"".join(b"FRAME\n" + bytes((i * 7 + j) % 256 for j in range(frame_bytes)) for i in range(frames))

out("FuzzY4M", "420jpeg.y4m", y4m("YUV4MPEG2 W4 H2 F25:1 Ip A1:1 C420jpeg", 2, 4 * 2 + 2 * 2 * 1))
out("FuzzY4M", "444.y4m", y4m("YUV4MPEG2 W2 H2 F30000:1001 C444", 2, 2 * 2 * 3))
out("FuzzY4M", "422.y4m", y4m("YUV4MPEG2 W4 H2 F15:1 C422", 1, 8 + 2 * 4))
out("FuzzY4M", "mono.y4m", y4m("YUV4MPEG2 W3 H3 F1:1 Cmono XYSCSS=MONO", 2, 9))
out("FuzzY4M", "420p10.y4m", y4m("YUV4MPEG2 W2 H2 F25:1 C420p10", 1, (4 + 1 + 1) * 2))
out("FuzzY4M", "444alpha.y4m", y4m("YUV4MPEG2 W2 H1 F25:1 C444alpha", 1, 2 * 4))
out("FuzzY4M", "frame-params.y4m", b"YUV4MPEG2 W2 H2 F25:1 C420\nFRAME Ixyz\n" + bytes(6))

# Audio ----------------------------------------------------------------------------------------
def wav(name, channels, width, rate, frames):
    path = f"Corpus/FuzzAudioFile/{name}"
    os.makedirs("Corpus/FuzzAudioFile", exist_ok=True)
    with wave.open(path, "wb") as w:
        w.setnchannels(channels); w.setsampwidth(width); w.setframerate(rate)
        w.writeframes(bytes((i * 37) % 256 for i in range(frames * channels * width)))
    return path

wav("mono16.wav", 1, 2, 8000, 64)
wav("stereo16.wav", 2, 2, 44100, 32)
wav("mono8.wav", 1, 1, 16000, 48)
wav("mono24.wav", 1, 3, 48000, 16)
floats = struct.pack("<8f", 0.0, 0.5, -0.5, 1.0, float("nan"), float("inf"), -1.0, 0.25)
out("FuzzAudioFile", "float32-nan.wav",
    b"RIFF" + struct.pack("<I", 36 + len(floats)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 3, 1, 8000, 32000, 4, 32)
    + b"data" + struct.pack("<I", len(floats)) + floats)
truncated = open("Corpus/FuzzAudioFile/mono16.wav", "rb").read()
out("FuzzAudioFile", "truncated16.wav", truncated[:60])
if shutil.which("sox"):
    for ext in ["aiff", "flac", "au"]:
        subprocess.run(["sox", "Corpus/FuzzAudioFile/mono16.wav", f"Corpus/FuzzAudioFile/mono16.{ext}"], check=True)

# Device files ---------------------------------------------------------------------------------
os.makedirs("Corpus/FuzzDeviceFile", exist_ok=True)
shutil.copy("../Samples/front-door.json", "Corpus/FuzzDeviceFile/front-door.json")
out("FuzzDeviceFile", "minimal.json", '{"name": "cam"}\n')
out("FuzzDeviceFile", "zones.json", """{"name": "porch", "twoDCartesianMax": {"x": 1919, "y": 1079}, "maxUserDefinedZones": 4,
 "sensitivityMax": 10, "sensitivity": 5,
 "zones": [{"zoneID": 3, "zoneSource": "user", "name": "bow tie", "use": ["motion", "focus"],
            "vertices": [{"x": 0, "y": 0}, {"x": 100, "y": 100}, {"x": 100, "y": 0}, {"x": 0, "y": 100}]},
           {"zoneID": 4, "zoneSource": "user", "name": "path", "use": "privacy", "vertices": [{"x": 5, "y": 5}, {"x": 60, "y": 5}, {"x": 30, "y": 40}], "color": "#00ff00"}],
 "triggers": [{"zoneID": 3, "initialDuration": 1, "augmentationDuration": 0, "maxDuration": 65535, "blindDuration": 0}],
 "supportedEventTriggers": ["motion", "sound"], "enabledEventTriggers": ["sound"],
 "transport": {"transportStatus": "inactive", "triggerOptions": {"triggerType": "continuous"}},
 "audio": {"microphoneMuted": true, "recordingMicrophoneMuted": false},
 "video": {"viewport": {"x1": 10, "y1": 10, "x2": 20, "y2": 20}, "nightVision": "on"}}
""")
out("FuzzDeviceFile", "bad-types.json", '{"name": 7, "zoneManagement": {"zones": [{"zoneID": -1}]}, "recordingModes": null}')
out("FuzzDeviceFile", "escapes.json", '{"name": "caf\\u00e9 \\ud83d\\ude00 \\"x\\"", "extra": [1e308, -0.0, 12345678901234567890, true, null]}')

# Control requests: first byte = endpoint (0 createZone, 1 updateZone, 2 removeZone, 3 trigger,
# 4 removeTrigger, 5 event triggers, 6 recording mode, 7 transport, 8 audio); bit 7 set = the text
# before the first newline is the path ID.
zone = '{"name": "drive", "use": "motion", "vertices": [{"x": 10, "y": 10}, {"x": 300, "y": 10}, {"x": 150, "y": 200}], "color": "#00FF00"}'
out("FuzzControlRequest", "create-zone", b"\x00" + zone.encode())
out("FuzzControlRequest", "update-zone", b"\x81" + b"1\n" + zone.encode())
out("FuzzControlRequest", "remove-zone", b"\x82" + b"1\n{}")
out("FuzzControlRequest", "trigger", b"\x03" + b'{"zoneID": 1, "initialDuration": 10, "augmentationDuration": 2, "maxDuration": 30, "blindDuration": 5, "sensitivity": 3}')
out("FuzzControlRequest", "remove-trigger", b"\x84" + b"1\n{}")
out("FuzzControlRequest", "event-triggers", b"\x05" + b'[{"eventTriggerType": "sound", "enablementStatus": "enabled"}, {"eventTriggerType": "motion", "enablementStatus": "disabled"}]')
out("FuzzControlRequest", "recording-mode-index", b"\x06" + b'{"selectedRecordingMode": 0}')
out("FuzzControlRequest", "recording-mode-name", b"\x06" + b'{"recordingMode": "cvr"}')
out("FuzzControlRequest", "transport", b"\x07" + b'{"transportStatus": "inactive", "triggerOptions": {"triggerType": "motion", "motionZones": [{"zone": 1, "sensitivity": 4}], "motionSensitivity": 5, "motionTimeControl": {"initialDuration": 5, "augmentationDuration": 1, "maxDuration": 20, "blindDuration": 2}, "maxPreRollLen": 1000}}')
out("FuzzControlRequest", "audio", b"\x08" + b'{"microphoneMuted": true, "recordingMicrophoneMuted": true}')

# Media containers: tiny clips (16x16 test pattern at 5 fps, a 440 Hz tone) made by the ffmpeg
# command (Debian package ffmpeg; skipped when absent), each under libFuzzer's 4096-byte -max_len.
if shutil.which("ffmpeg"):
    os.makedirs("Corpus/FuzzMediaContainer", exist_ok=True)
    video = ["-f", "lavfi", "-i", "testsrc=size=16x16:rate=5"]
    def tone(rate):
        return ["-f", "lavfi", "-i", f"sine=frequency=440:sample_rate={rate}"]
    def ffmpeg(name, *arguments):
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", *arguments, f"Corpus/FuzzMediaContainer/{name}"], check=True)
    ffmpeg("h264-aac.mp4", *video, *tone(8000), "-t", "0.4", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "16k", "-ac", "1")
    ffmpeg("h264-aac-faststart.mp4", "-i", "Corpus/FuzzMediaContainer/h264-aac.mp4", "-c", "copy", "-movflags", "+faststart")
    ffmpeg("vp9-opus.webm", *video, *tone(48000), "-t", "0.4", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-pix_fmt", "yuv420p",
           "-c:a", "libopus", "-b:a", "8k", "-ac", "1")
    ffmpeg("hevc.mkv", *video, "-t", "0.6", "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p")
    ffmpeg("mpeg2-mp2.ts", *video, *tone(8000), "-t", "0.2", "-c:v", "mpeg2video", "-c:a", "mp2", "-ac", "1", "-b:a", "32k")
    ffmpeg("pcm.wav", *tone(8000), "-t", "0.1", "-c:a", "pcm_s16le")
    ffmpeg("mjpeg.mkv", *video, "-t", "0.2", "-c:v", "mjpeg", "-pix_fmt", "yuvj420p", "-q:v", "20")
    ffmpeg("rgb.nut", *video, "-t", "0.4", "-c:v", "rawvideo", "-pix_fmt", "rgb24")

# What a camera's RTSP port answers: the SDP of its DESCRIBE reply (the reader of bytes in memory
# must not open the RTP ports it names) and the reply itself (headers before the SDP).
camera_sdp = (b"v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=cam\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
              b"m=video 5004 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\na=control:trackID=0\r\n"
              b"m=audio 5006 RTP/AVP 97\r\na=rtpmap:97 MPEG4-GENERIC/16000/1\r\na=control:trackID=1\r\n")
out("FuzzMediaContainer", "camera-describe.sdp", camera_sdp)
out("FuzzMediaContainer", "rtsp-describe-reply.txt",
    b"RTSP/1.0 200 OK\r\nCSeq: 2\r\nContent-Type: application/sdp\r\nContent-Length: %d\r\n\r\n" % len(camera_sdp) + camera_sdp)
