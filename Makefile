# Vigil: two commands on a fresh Debian machine.
#   make demo   installs what is missing, builds, and analyzes the bundled sample as an MP4
#   make test   installs what is missing, builds, and runs the test suite

SWIFT        ?= swift
APT_PACKAGES := libsndfile1-dev libfftw3-dev libpng-dev pkg-config \
	libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev libmosquitto-dev
# Tests and `vigil bench motion` decode MP4 sequences with the ffmpeg command; the media reader's
# tests make their MP4/MKV/WebM files with it and serve RTSP through rtsp-server-perl; the MQTT
# tests run a mosquitto broker and mosquitto_sub, with certificates made by openssl. Tests that
# need one of them skip without it.
TEST_APT_PACKAGES := ffmpeg mosquitto mosquitto-clients rtsp-server-perl openssl
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RELEASE_BIN  := .build/release/vigil
# Test builds (make test, the sanitizer runs) compile Vigil's own modules with -O; dependencies
# and the test code stay -Onone (Package.swift). The suite's signal processing and training run
# about 9x faster: 380 s of CPU -> 41 s serially. VIGIL_OPTIMIZED_DEBUG=0 gives a plain -Onone build.
VIGIL_OPTIMIZED_DEBUG ?= 1
export VIGIL_OPTIMIZED_DEBUG
# Set only by the sanitizer runs below (ASAN_ENV, TSAN_ENV): every other target builds uninstrumented.
unexport VIGIL_SANITIZE

.PHONY: all deps build demo test embedded-models check-imports release clean help format lint bench bench-instructions training-music \
	training-words music-check bark-check \
	test-asan test-tsan test-hostile test-hardening test-repeat fuzz-build fuzz fuzz-smoke

all: build

help:
	@echo "make demo    - install missing packages, build, analyze the bundled sample as an MP4 camera recording"
	@echo "make test    - install missing packages, build, run all tests"
	@echo "make build   - release build of the vigil command (.build/release/vigil)"
	@echo "make format  - format the Swift sources in place (swift format, .swift-format)"
	@echo "make lint    - check the Swift sources' formatting; fails on any finding"
	@echo "make bench   - package-benchmark suites in Benchmarks/ (see BENCHMARKS.md)"
	@echo "make bench-instructions - instructions per kernel unit, counted with callgrind"
	@echo "make check-imports - Package.swift dependencies match the imports; runtime modules link no trainer or scorer"
	@echo "make embedded-models - regenerate Sources/VigilDetectors/EmbeddedModels.swift from Models/*.json"
	@echo "make training-music - render Models/music-negatives (dogBark's training negatives) with FluidSynth"
	@echo "make training-words - make Models/word-positives (personTalking's extra training words) from Debian's qabcs-data"
	@echo "make music-check - false alarms of the learned detectors on 3.6 h of released music (Debian packages)"
	@echo "make bark-check - dogBark recall on barks of unseen dogs (Debian packages' sound effects; needs ../shared)"
	@echo "make test-repeat N - the test suite N times with one core kept busy (stress-ng), naming each failing test"
	@echo "make test-hardening - hostile-input tests, ASan and TSan test runs, 60 s fuzzing smoke run"
	@echo "make test-asan / test-tsan - the test suite under AddressSanitizer / ThreadSanitizer"
	@echo "make fuzz FUZZ_SECONDS=600 - the libFuzzer targets in Fuzz/ (see docs/fuzzing.md)"
	@echo "VIGIL_NATIVE=1 make build  - opt-in -target-cpu haswell tuning (not portable)"
	@echo "make test VIGIL_OPTIMIZED_DEBUG=0 - test on a plain -Onone build (default: Vigil modules at -O)"

# $(call apt_install,PACKAGES): installs those of the Debian PACKAGES that are not installed yet
# (apt-get update only when needed). "Installed" is dpkg's status "install ok installed": a removed
# package whose configuration files remain is not.
define apt_install
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

# $(call deb_unpack,DIR,PACKAGES): downloads the Debian PACKAGES into DIR/debs (once; never
# installed) and unpacks them into DIR/x. Used by the checks on material outside the project.
define deb_unpack
	@cd $(1)/debs && for p in $(2); do \
	  ls $${p}_*.deb >/dev/null 2>&1 || apt-get download -qq $$p 2>/dev/null || \
	  { $(SUDO) apt-get update -qq && apt-get download -qq $$p; } || exit 1; \
	done
	@for f in $(1)/debs/*.deb; do dpkg-deb -x $$f $(1)/x; done
endef

# Package.swift's dependencies against the import lines, and the runtime modules' independence of
# the trainer and the scorer (docs/architecture.md, "Modules").
check-imports:
	scripts/check-imports.sh

# The shipped models compiled into the binary: Models/*.json, minified, as Swift string literals.
embedded-models:
	$(SWIFT) run vigil-embed-models Models Sources/VigilDetectors/EmbeddedModels.swift

deps:
	$(call apt_install,$(APT_PACKAGES))

build: deps
	$(SWIFT) build -c release --product vigil

release: build

# The demo is a camera recording: the demo frames looped as H.264 video with the demo scene as
# AAC audio in an MP4, made by the ffmpeg command, analyzed in one pass on one timeline.
DEMO_MP4 := .build/demo/demo-scene.mp4
$(DEMO_MP4): Samples/demo-scene.flac $(wildcard Samples/demo-frames/*.png)
	$(call apt_install,ffmpeg)
	@mkdir -p $(dir $@)
	ffmpeg -nostdin -loglevel error -y -stream_loop -1 -framerate 10 -i Samples/demo-frames/frame-%03d.png \
	  -i Samples/demo-scene.flac -map 0:v -map 1:a -t 40 -c:v libx264 -pix_fmt yuv420p -c:a aac -b:a 96k $@

demo: build $(DEMO_MP4)
	$(RELEASE_BIN) analyze $(DEMO_MP4) --device Samples/front-door.json --format table

# The live-server abuse suite checks that events stay on time during a flood, a slowloris and
# 100 clients: it runs on its own after the others, so the CPU-heavy suites running in
# parallel cannot starve it and turn a wall-clock check into noise.
# Suites with wall-clock limits that run on their own after the others (as in the sanitizer runs):
# the live-server abuse suite, and `vigil live` of RTSP streams (across camera restarts; a URL that
# never connects), whose HTTP clients would otherwise wait behind the CPU-heavy suites in the test
# process's cooperative thread pool.
SERIAL_SUITES := HostileServerTests|LiveRTSPCommandTests|NeverConnectingStreamTests
test: deps
	$(call apt_install,$(TEST_APT_PACKAGES))
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --skip '$(SERIAL_SUITES)'
	$(SWIFT) test --skip-build --disable-xctest --filter '$(SERIAL_SUITES)'

# Formatting (CONTRIBUTING.md, "Formatting"): swift format with the rules in .swift-format, over
# every Swift file of the package, Benchmarks/ and Fuzz/ except generated ones (first line
# "// Generated by ..."; their generator writes them) and build directories.
FORMAT_FILES = $(shell find Package.swift Sources Tests Benchmarks Fuzz -name '*.swift' -not -path '*/.build/*' \
  -exec awk 'FNR == 1 && !/^\/\/ Generated by/ { print FILENAME }' {} +)
format:
	$(SWIFT) format format --in-place --parallel --configuration .swift-format $(FORMAT_FILES)

lint:
	$(SWIFT) format lint --strict --parallel --configuration .swift-format $(FORMAT_FILES)

# The shipped dogBark model trains with generated music as extra negatives (docs/sound-models.md,
# "Data"): Models/music-negatives/*.mid rendered to 44.1 kHz WAV by FluidSynth with the
# FluidR3_GM soundfont (both Debian packages; the render is deterministic). Only training needs it.
TRAINING_MUSIC := .build/training-music
SOUNDFONT      := /usr/share/sounds/sf2/FluidR3_GM.sf2
training-music:
	$(call apt_install,fluidsynth fluid-soundfont-gm)
	@mkdir -p $(TRAINING_MUSIC)
	@for f in Models/music-negatives/*.mid; do \
	  out=$(TRAINING_MUSIC)/$$(basename $$f .mid).wav; \
	  [ -s $$out ] && continue; \
	  timeout 60 fluidsynth -ni -q -T wav -g 0.5 -r 44100 -F $$out.tmp $(SOUNDFONT) $$f >/dev/null && mv $$out.tmp $$out || { rm -f $$out.tmp; echo "cannot render $$f"; exit 1; }; \
	done
	@echo "$$(ls $(TRAINING_MUSIC)/*.wav | wc -l) pieces in $(TRAINING_MUSIC)"

# The shipped personTalking model trains with single words of other voices as extra labeled
# recordings (docs/sound-models.md, "Data"): Models/word-positives/generate.py
# over the spoken words of Debian's qabcs-data (GPL-3+; downloaded into .build, never installed or
# copied into the project), run by Debian's python3 with python3-numpy and python3-soundfile (the
# same bytes every time on Debian 12). Only training needs it.
TRAINING_WORDS := .build/training-words
WORDS_SOURCE   := .build/training-words-source
training-words:
	$(call apt_install,python3-numpy python3-soundfile)
	@mkdir -p $(WORDS_SOURCE)/debs $(WORDS_SOURCE)/x
	$(call deb_unpack,$(WORDS_SOURCE),qabcs-data)
	@[ -s $(TRAINING_WORDS)/labels.tsv ] || /usr/bin/python3 Models/word-positives/generate.py \
	  $(WORDS_SOURCE)/x/usr/share/qabcs/abcs $(TRAINING_WORDS)
	@echo "$$(ls $(TRAINING_WORDS)/*.wav | wc -l) recordings, $$(wc -l < $(TRAINING_WORDS)/labels.tsv) words in $(TRAINING_WORDS)"

# False alarms of the learned detectors on real music none of them trained on (docs/sound-models.md,
# "Music no model has heard"): the 92 soundtrack tracks of four Debian game-music packages
# (3.6 h; downloaded into .build, never copied into the project), analyzed as negatives.
MUSIC_CHECK          := .build/music-check
MUSIC_CHECK_PACKAGES := asc-music drascula-music wesnoth-1.16-music hyperrogue-music
music-check: build
	@mkdir -p $(MUSIC_CHECK)/debs $(MUSIC_CHECK)/x $(MUSIC_CHECK)/tracks
	$(call deb_unpack,$(MUSIC_CHECK),$(MUSIC_CHECK_PACKAGES))
	@find $(MUSIC_CHECK)/x -type f \( -path '*/music/*' -o -path '*/drascula/audio/*' \) \
	  \( -name '*.ogg' -o -name '*.mp3' \) -exec ln -sf $(CURDIR)/{} $(MUSIC_CHECK)/tracks/ \;
	@echo "$$(ls $(MUSIC_CHECK)/tracks | wc -l) tracks in $(MUSIC_CHECK)/tracks"
	@$(RELEASE_BIN) analyze $(MUSIC_CHECK)/tracks --triggers dogBark,glassBreak,personTalking --format jsonl \
	  > $(MUSIC_CHECK)/events.jsonl; \
	for t in dogBark glassBreak personTalking; do \
	  echo "$$t: $$(grep -c "\"trigger\":\"$$t\"" $(MUSIC_CHECK)/events.jsonl) events (false alarms)"; \
	done

# Recall of the shipped dogBark detector on barks of dogs no model has heard (docs/sound-models.md,
# "Unseen barks"): the bark sound effects of nine Debian packages (downloaded into .build, never
# copied into the project), each played as a bout of three over development-set backgrounds at 20
# and 6 dB SNR (Sources/vigil-dev/UnseenBarkCheck.swift; needs ../shared/data).
BARK_CHECK          := .build/bark-check
BARK_CHECK_PACKAGES := lugaru-data scorched3d-data trophy-data etw-data scratch qabcs-data mate-media-common \
  xemacs21-basesupport hyperrogue-music
BARK_CHECK_FILES    := games/lugaru/Sounds/Bark.ogg games/lugaru/Sounds/Bark2.ogg games/lugaru/Sounds/Bark3.ogg \
  games/lugaru/Sounds/BarkGrowl.ogg games/scorched3d/data/globalmods/apoc/data/wav/misc/dog.wav \
  games/scorched3d/data/globalmods/apoc/data/wav/misc/dog2.wav games/scorched3d/data/globalmods/apoc/data/wav/misc/dog3.wav \
  games/trophy/sounds/dog.wav games/etw/snd/dog.wav scratch/Media/Sounds/Animal/Dog1.wav scratch/Media/Sounds/Animal/Dog2.wav \
  qabcs/abcs/all/noises/dog.ogg sounds/mate/default/alerts/bark.ogg xemacs21/xemacs-packages/etc/sounds/bark.wav \
  hyperrogue/sounds/seen-woof.ogg
bark-check: deps
	@mkdir -p $(BARK_CHECK)/debs $(BARK_CHECK)/x $(BARK_CHECK)/clips
	$(call deb_unpack,$(BARK_CHECK),$(BARK_CHECK_PACKAGES))
	@for f in $(BARK_CHECK_FILES); do \
	  name=$$(echo $$f | tr '/' '_'); ln -sf $(CURDIR)/$(BARK_CHECK)/x/usr/share/$$f $(BARK_CHECK)/clips/$$name || exit 1; \
	  [ -s $(BARK_CHECK)/clips/$$name ] || { echo "missing $$f"; exit 1; }; \
	done
	@echo "$$(ls $(BARK_CHECK)/clips | wc -l) bark clips in $(BARK_CHECK)/clips"
	$(SWIFT) run -c release vigil-dev bark-check $(CURDIR)/$(BARK_CHECK)/clips

# Sanitizer runs of the test suite. VIGIL_SANITIZE=address or thread (Package.swift) instruments
# Vigil's modules and tools and leaves the dependencies and the test code as the plain debug build
# compiled them, in the same build directory: a sanitizer run recompiles only Vigil's modules, and
# the next plain build recompiles them back. After the build, scripts/check-sanitized.sh stops the
# run if any module came out uninstrumented (docs/fuzzing.md, "Sanitizers"). SANITIZER_SKIP (both), ASAN_SKIP and
# TSAN_SKIP take `--skip SUITE` options; SANITIZER_SKIP is empty by default.
# Leak checking is off under ASan (detect_leaks=0): the test process's exit-time report is
# dominated by leaks outside Vigil (FoundationEssentials' Data(contentsOf:) keeps a 4 KiB buffer
# per empty file read; NIO channels of the live tests), see docs/fuzzing.md.
SANITIZER_SKIP ?=
# The live-server abuse tests check wall-clock limits (socket timeouts, event delivery within
# 1 s) and memory growth; instrumented code runs 2-15x slower and ASan's quarantine holds
# 256 MiB of freed blocks, so under the sanitizers those limits get this factor and that slack
# (Tests/VigilTestSupport/SanitizerAllowance.swift). `make test` checks them at full
# strength. ThreadSanitizer false positives outside Vigil, each with its reason,
# are listed in Tests/tsan-suppressions.txt.
# As in `make test`, the server abuse suite runs on its own after the others: the parallel
# CPU-heavy suites can occupy Swift's cooperative thread pool (one thread per core) for minutes,
# and the server's handlers would wait behind them.
SANITIZER_WALL_CLOCK_SCALE ?= 10
# Under ThreadSanitizer, the suites that only run single-threaded numeric work are skipped: the
# trainer's, the sound detectors' and the motion detector's (their modules have no lock, task or
# thread), `vigil train` and `vigil bench motion`. They share no state between threads, they take
# most of the suite's CPU time under TSan, and ASan and `make test` run them; the detectors run
# concurrently under TSan in the pipeline, live-server and batch suites (docs/fuzzing.md, "make
# test-hardening and its time budget"). TSAN_SKIP= runs them too.
TSAN_SKIP ?= --skip 'TrainCommandTests|VigilTrainingTests\.|VigilDetectorsTests\.|VigilVisionTests\.|BenchMotionTests'
# Under AddressSanitizer, the motion detector's accuracy over all seven CDnet sequences is skipped:
# one single-threaded test of about two minutes of CPU there, the longest of the ASan run. Its
# kernels still run under ASan on real frames (the highway frames, `vigil bench motion` on a CDnet
# sequence), and `make test` checks the accuracy. ASAN_SKIP= runs it too.
ASAN_SKIP ?= --skip 'RealFramesTests/groundTruthSequences'
ASAN_ENV = VIGIL_SANITIZE=address ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no \
  VIGIL_WALL_CLOCK_SCALE=$(SANITIZER_WALL_CLOCK_SCALE) VIGIL_MEMORY_SLACK_MIB=256
TSAN_ENV = VIGIL_SANITIZE=thread TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/Tests/tsan-suppressions.txt" \
  SWIFT_BACKTRACE=enable=no VIGIL_WALL_CLOCK_SCALE=$(SANITIZER_WALL_CLOCK_SCALE)
test-asan: deps
	$(ASAN_ENV) $(SWIFT) build --build-tests
	scripts/check-sanitized.sh address
	$(ASAN_ENV) $(SWIFT) test --skip-build --disable-xctest $(SANITIZER_SKIP) $(ASAN_SKIP) --skip '$(SERIAL_SUITES)'
	$(ASAN_ENV) $(SWIFT) test --skip-build --disable-xctest --filter '$(SERIAL_SUITES)'

test-tsan: deps
	$(TSAN_ENV) $(SWIFT) build --build-tests
	scripts/check-sanitized.sh thread
	$(TSAN_ENV) $(SWIFT) test --skip-build --disable-xctest $(SANITIZER_SKIP) $(TSAN_SKIP) --skip '$(SERIAL_SUITES)'
	$(TSAN_ENV) $(SWIFT) test --skip-build --disable-xctest --filter '$(SERIAL_SUITES)'

# Flake hunting (docs/fuzzing.md, "Flakes"): `make test-repeat 10` runs the suite 10 times while
# stress-ng keeps one core busy and prints each failing test by name. TEST_REPEAT_SUITE=asan or
# tsan repeats a sanitizer suite instead; TEST_REPEAT_LOAD=none runs on an idle machine.
TEST_REPEAT_SUITE ?= plain
TEST_REPEAT_LOAD  ?= stress-ng --cpu 1
ifeq (test-repeat,$(firstword $(MAKECMDGOALS)))
  TEST_REPEAT_RUNS := $(or $(word 2,$(MAKECMDGOALS)),$(N))
  ifneq ($(TEST_REPEAT_RUNS),)
    $(eval $(TEST_REPEAT_RUNS):;@:)
  endif
endif
TEST_REPEAT_ENV = $(if $(filter asan,$(TEST_REPEAT_SUITE)),$(ASAN_ENV),$(if $(filter tsan,$(TEST_REPEAT_SUITE)),$(TSAN_ENV)))
test-repeat: deps
	$(call apt_install,stress-ng)
	@[ -n "$(TEST_REPEAT_RUNS)" ] || { echo "usage: make test-repeat N (how many runs)"; exit 2; }
	$(TEST_REPEAT_ENV) scripts/test-repeat.sh -s $(TEST_REPEAT_SUITE) -l "$(TEST_REPEAT_LOAD)" $(TEST_REPEAT_RUNS)

# The hostile-input corpus suites (Tests/, suites named "Hostile ...").
test-hostile: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --filter Hostile

# libFuzzer targets (Fuzz/ is its own package, instrumented with -sanitize=fuzzer,address).
FUZZ_SECONDS ?= 600
FUZZ_JOBS    ?= 1
FUZZ_TARGETS ?=
fuzz-build: deps
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld

fuzz: fuzz-build
	Fuzz/run-fuzzers.sh -t $(FUZZ_SECONDS) -j $(FUZZ_JOBS) $(FUZZ_TARGETS)

# Three at a time: two rounds of 60 s for the six targets instead of three (docs/fuzzing.md).
fuzz-smoke: fuzz-build
	Fuzz/run-fuzzers.sh -t 60 -j 3

# The hardening checks CI runs: under 30 minutes on 2 cores (docs/fuzzing.md has the budget).
test-hardening: test-hostile test-asan test-tsan fuzz-smoke

# package-benchmark suites (Benchmarks/ is its own package; see BENCHMARKS.md).
bench: deps
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

# Instructions per unit of each kernel, counted by valgrind's callgrind (for VMs without hardware
# counters for perf): each kernel runs N and 2N units; the difference removes setup.
# Units: stft = 10 s of 44.1 kHz audio (860 frames), pip = 1,048,576 points, motion* = one frame.
bench-instructions: build
	@command -v valgrind >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
	@# Valgrind 3.19 cannot read the debug info Swift 6.3 writes: count on a stripped copy.
	@strip -o .build/vigil-stripped $(RELEASE_BIN)
	@for k in stft pip motion640 motion1280 motion1920; do \
	  a=$$(valgrind --tool=callgrind --callgrind-out-file=/dev/null .build/vigil-stripped bench kernels --only $$k --iterations 2 2>&1 >/dev/null | sed -n 's/.*Collected : //p'); \
	  b=$$(valgrind --tool=callgrind --callgrind-out-file=/dev/null .build/vigil-stripped bench kernels --only $$k --iterations 4 2>&1 >/dev/null | sed -n 's/.*Collected : //p'); \
	  echo "$$k: $$(( (b - a) / 2 )) instructions per unit"; \
	done

clean:
	rm -rf .build Benchmarks/.build Fuzz/.build
