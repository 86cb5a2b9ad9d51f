// Opt-in CPU tuning: VIGIL_NATIVE=1 swift build -c release adds -target-cpu haswell.
// The default build runs on any x86-64.
import Foundation
// swift-tools-version:6.1
import PackageDescription

let nativeFlags: [SwiftSetting] =
    (ProcessInfo.processInfo.environment["VIGIL_NATIVE"] == "1"
        ? [.unsafeFlags(["-target-cpu", "haswell"])] : [])
    // Opt-in: VIGIL_OPTIMIZED_DEBUG=1 compiles Vigil's own modules with -O in debug builds too
    // (dependencies and test code stay -Onone). `make test` and the sanitizer runs set it: the
    // test suite's signal processing and training then run several times faster. A package that
    // depends on Vigil never sees it (no unsafe flags unless the variable is set).
    + (ProcessInfo.processInfo.environment["VIGIL_OPTIMIZED_DEBUG"] == "1"
        ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : [])

let package = Package(
    name: "Vigil",
    platforms: [.macOS(.v14)],
    // Three deliberate products: the command, the analysis library (everything needed to analyze a
    // recording or a stream: device model, event engine, DSP, detectors, file, container and frame I/O)
    // and the live server with its MQTT publisher. The training and scoring modules are no product: only the command, the developer
    // tools and the tests link them (docs/architecture.md, "Modules").
    products: [
        .executable(name: "vigil", targets: ["vigil"]),
        .library(
            name: "VigilPipeline",
            targets: [
                "VigilCore", "VigilGeometry", "VigilDevice", "VigilEvents", "VigilControl", "VigilDSP", "VigilInference", "VigilDetectors",
                "VigilImaging", "VigilVision", "VigilFrameIO", "VigilAudioIO", "VigilAnalysis", "VigilSynth", "VigilReport",
                "VigilMedia", "VigilPipeline",
            ]),
        .library(name: "VigilLive", targets: ["VigilLive", "VigilMQTT"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Already in the graph through Hummingbird; named here for the live tests' HTTP client.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Already in the graph through Hummingbird; named here because the live server logs through it and
        // `vigil live` shuts down through a ServiceGroup (VigilLive/LiveService).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C libraries from Debian, one shim each (swift-nio style: C* targets).
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CFFTW3", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswresample-dev", "libswscale-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

        // Pure Swift core: no file or network I/O.
        .target(name: "VigilCore", swiftSettings: nativeFlags),
        .target(name: "VigilGeometry", swiftSettings: nativeFlags),
        .target(name: "VigilDevice", dependencies: ["VigilCore", "VigilGeometry"], swiftSettings: nativeFlags),
        .target(name: "VigilEvents", dependencies: ["VigilCore", "VigilDevice"], swiftSettings: nativeFlags),
        .target(
            name: "VigilDSP",
            dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "CFFTW3"],
            swiftSettings: nativeFlags),
        // The learned detectors' inference: model format, features, tree evaluation, event tracking.
        .target(name: "VigilInference", dependencies: ["VigilCore", "VigilDSP"], swiftSettings: nativeFlags),
        .target(name: "VigilDetectors", dependencies: ["VigilCore", "VigilDSP", "VigilInference"], swiftSettings: nativeFlags),
        .target(name: "VigilSynth", dependencies: ["VigilCore"], swiftSettings: nativeFlags),
        // Offline modules (no runtime module depends on them; docs/architecture.md, "Modules"): the
        // scorer, and the training of the learned detectors' models.
        .target(name: "VigilScoring", dependencies: ["VigilCore"], swiftSettings: nativeFlags),
        .target(
            name: "VigilTraining",
            dependencies: ["VigilCore", "VigilDSP", "VigilInference", "VigilScoring", "VigilAudioIO", "VigilPipeline"],
            swiftSettings: nativeFlags),
        .target(
            name: "VigilAnalysis",
            dependencies: ["VigilCore", "VigilEvents", "VigilDSP", "VigilDetectors"],
            swiftSettings: nativeFlags),

        .target(name: "VigilImaging", dependencies: ["VigilCore", "CPNG"], swiftSettings: nativeFlags),
        .target(
            name: "VigilVision",
            dependencies: ["VigilCore", "VigilGeometry", "VigilDevice", "VigilImaging"], swiftSettings: nativeFlags),

        .target(name: "VigilReport", dependencies: ["VigilImaging", "VigilDSP"], swiftSettings: nativeFlags),

        // System code: files.
        .target(name: "VigilFrameIO", dependencies: ["VigilCore", "VigilImaging"], swiftSettings: nativeFlags),
        .target(
            name: "VigilAudioIO", dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "VigilCore", "CSndFile"],
            swiftSettings: nativeFlags),
        // Containers and network streams through FFmpeg's libraries (docs/video.md).
        .target(
            name: "VigilMedia",
            dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "VigilFrameIO", "VigilImaging", "CFFmpeg"],
            swiftSettings: nativeFlags),

        // System code: network. MQTT out through libmosquitto, with the Home Assistant mapping (docs/mqtt.md).
        .target(
            name: "VigilMQTT",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "VigilCore", "VigilDevice", "CMosquitto",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: nativeFlags),

        // The live device's control commands (request bodies -> validated device changes): pure,
        // no server code, so the control-payload fuzz target needs no NIO build.
        .target(
            name: "VigilControl",
            dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "VigilCore", "VigilDevice"],
            swiftSettings: nativeFlags),

        // The analysis pipeline: audio and frame sources (files, stdin, y4m, PNG sequences, ffmpeg),
        // the analyzers, the event engine run, and the event sinks (JSON Lines, TSV, table, output folder).
        .target(
            name: "VigilPipeline",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "VigilCore", "VigilDevice", "VigilEvents", "VigilDSP", "VigilDetectors", "VigilAnalysis", "VigilAudioIO",
                "VigilFrameIO", "VigilImaging", "VigilMedia", "VigilVision", "VigilReport", "VigilSynth",
            ],
            swiftSettings: nativeFlags),

        // The benchmarks behind `vigil bench` (accuracy scoring, speed, kernels, batch, motion masks):
        // tools, so they may link the scorer and the trainer's data-set readers; no runtime module depends on them.
        .target(
            name: "VigilBench",
            dependencies: [
                "VigilPipeline", "VigilCore", "VigilAnalysis", "VigilAudioIO", "VigilDSP", "VigilDetectors", "VigilEvents",
                "VigilFrameIO", "VigilImaging", "VigilInference", "VigilMedia", "VigilTraining", "VigilReport", "VigilScoring",
                "VigilSynth", "VigilVision",
            ],
            swiftSettings: nativeFlags),

        // The live event generator's HTTP server.
        .target(
            name: "VigilLive",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "VigilControl", "VigilCore", "VigilDevice", "VigilEvents", "VigilAnalysis", "VigilDetectors", "VigilDSP", "VigilInference",
                "VigilVision", "VigilFrameIO", "VigilPipeline", "VigilMQTT", "VigilMedia",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: nativeFlags),

        // Thin command-line frontend.
        .executableTarget(
            name: "vigil",
            dependencies: [
                "VigilCore", "VigilDevice", "VigilDetectors", "VigilAudioIO",
                "VigilAnalysis", "VigilScoring", "VigilInference", "VigilTraining", "VigilImaging", "VigilVision",
                "VigilLive", "VigilPipeline", "VigilBench", "VigilMQTT", "VigilMedia",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),

            ],
            swiftSettings: nativeFlags),

        // Developer tool, not a product: writes Sources/VigilDetectors/EmbeddedModels.swift from
        // Models/*.json (`make embedded-models`).
        .executableTarget(name: "vigil-embed-models", dependencies: ["VigilTraining"], swiftSettings: nativeFlags),

        // Developer tool, not a product: trains and checks the shipped models, diagnostics, the
        // unseen-bark check and the learned detectors' throughput (reads ../shared/data).
        .executableTarget(
            name: "vigil-dev",
            dependencies: [
                "VigilAudioIO", "VigilCore", "VigilDSP", "VigilDetectors", "VigilInference", "VigilScoring", "VigilTraining",
                "VigilTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: nativeFlags),

        // The live server's test harness: runs a LiveServer on a free port and talks HTTP/1.1 to it
        // over real TCP (Tests/VigilServerTesting; not HummingbirdTesting, see TestHTTPClient).
        .target(
            name: "VigilServerTesting",
            dependencies: [
                "VigilLive",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/VigilServerTesting"),

        // Helpers shared by the test targets: the runner of the built vigil executable.
        // Helpers shared by the test targets and vigil-dev: the runner of the built vigil executable,
        // the development data (../shared/data) and the learned detectors run over samples.
        .target(
            name: "VigilTestSupport",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "VigilAudioIO", "VigilCore", "VigilDSP", "VigilDetectors",
                "VigilInference", "VigilScoring", "VigilSynth", "VigilTraining",
            ],
            path: "Tests/VigilTestSupport"),

        .testTarget(name: "VigilCoreTests", dependencies: ["VigilCore"]),
        .testTarget(
            name: "VigilControlTests",
            dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "VigilControl", "VigilCore", "VigilDevice"]),
        .testTarget(name: "VigilSynthTests", dependencies: ["VigilSynth", "VigilCore"]),
        .testTarget(name: "VigilGeometryTests", dependencies: ["VigilGeometry"]),
        .testTarget(name: "VigilDeviceTests", dependencies: ["VigilDevice", "VigilCore"]),
        .testTarget(name: "VigilEventsTests", dependencies: ["VigilEvents", "VigilCore"]),
        .testTarget(name: "VigilDSPTests", dependencies: ["VigilDSP", "VigilSynth"]),
        .testTarget(
            name: "VigilAudioIOTests",
            dependencies: [.product(name: "NIOConcurrencyHelpers", package: "swift-nio"), "VigilAudioIO", "VigilSynth", "VigilCore"]),
        .testTarget(
            name: "VigilDetectorsTests",
            dependencies: ["VigilDetectors", "VigilDSP", "VigilAudioIO", "VigilSynth", "VigilCore", "VigilTestSupport"]),
        .testTarget(name: "VigilScoringTests", dependencies: ["VigilScoring"]),
        .testTarget(
            name: "VigilTrainingTests",
            dependencies: [
                "VigilTraining", "VigilInference", "VigilDetectors", "VigilAudioIO", "VigilSynth", "VigilScoring", "VigilCore", "VigilDSP",
                "VigilTestSupport",
            ]),
        .testTarget(name: "VigilImagingTests", dependencies: ["VigilImaging"]),
        .testTarget(name: "VigilReportTests", dependencies: ["VigilReport", "VigilImaging", "VigilDSP", "VigilSynth"]),
        .testTarget(name: "VigilVisionTests", dependencies: ["VigilVision", "VigilImaging", "VigilDevice", "VigilCore", "VigilGeometry"]),
        .testTarget(name: "VigilFrameIOTests", dependencies: ["VigilFrameIO", "VigilImaging", "VigilTestSupport"]),
        .testTarget(
            name: "VigilMediaTests",
            dependencies: [
                "VigilMedia", "CFFmpeg", "VigilCore", "VigilFrameIO", "VigilImaging", "VigilAudioIO", "VigilTestSupport",
            ]),
        .testTarget(name: "VigilMQTTTests", dependencies: ["VigilMQTT", "VigilCore", "VigilDevice", "VigilTestSupport"]),
        .testTarget(
            name: "VigilLiveTests",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "VigilLive", "VigilControl", "VigilDevice", "VigilSynth", "VigilFrameIO", "VigilImaging", "VigilCore",
                "VigilDetectors", "VigilServerTesting", "VigilPipeline", "VigilMQTT", "VigilTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
        .testTarget(
            name: "VigilPipelineTests",
            dependencies: [
                "VigilMedia",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                "VigilPipeline", "VigilAnalysis", "VigilAudioIO", "VigilCore", "VigilFrameIO", "VigilImaging", "VigilSynth",
                "VigilLive", "VigilControl", "VigilVision", "VigilTestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "VigilCLITests",
            dependencies: [
                "VigilAnalysis", "VigilAudioIO", "VigilInference", "VigilTraining", "VigilSynth", "VigilCore", "VigilDetectors",
                "VigilEvents",
                "VigilImaging", "VigilTestSupport",
            ]),
        .testTarget(
            name: "VigilHostileInputTests",
            dependencies: [
                "VigilCore", "VigilDevice", "VigilAudioIO", "VigilImaging", "VigilFrameIO", "VigilSynth", "VigilControl", "VigilLive",
                "VigilMedia", "VigilServerTesting", "VigilTestSupport", "VigilPipeline",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            exclude: ["Corpus"]),
    ]
)

// Opt-in: VIGIL_SANITIZE=address or VIGIL_SANITIZE=thread instruments Vigil's own code (the
// modules and tools under Sources/) and links the sanitizer's runtime into every executable and the
// test bundle. The dependencies and the test code stay as the plain debug build compiled them, in
// the same build directory, so a sanitizer run recompiles only Vigil's modules (`make test-asan`,
// `make test-tsan`; docs/fuzzing.md, "Sanitizers").
if let sanitizer = ProcessInfo.processInfo.environment["VIGIL_SANITIZE"], ["address", "thread"].contains(sanitizer) {
    let flag = "-sanitize=\(sanitizer)"
    for target in package.targets where target.type != .system {
        if target.type != .test && !(target.path ?? "").hasPrefix("Tests/") {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags([flag])]
        }
        target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags([flag])]
    }
}
