// swift-tools-version:6.1
import PackageDescription

// Opt-in CPU tuning: VIGIL_NATIVE=1 swift build -c release adds -target-cpu haswell.
// The default build runs on any x86-64.
import Foundation
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
    products: [
        .executable(name: "vigil", targets: ["vigil"]),
        .library(name: "VigilCore", targets: ["VigilCore"]),
        .library(name: "VigilGeometry", targets: ["VigilGeometry"]),
        .library(name: "VigilDevice", targets: ["VigilDevice"]),
        .library(name: "VigilEvents", targets: ["VigilEvents"]),
        .library(name: "VigilDSP", targets: ["VigilDSP"]),
        .library(name: "VigilDetectors", targets: ["VigilDetectors"]),
        .library(name: "VigilSynth", targets: ["VigilSynth"]),
        .library(name: "VigilScoring", targets: ["VigilScoring"]),
        .library(name: "VigilLearning", targets: ["VigilLearning"]),
        .library(name: "VigilImaging", targets: ["VigilImaging"]),
        .library(name: "VigilVision", targets: ["VigilVision"]),
        .library(name: "VigilFrameIO", targets: ["VigilFrameIO"]),
        .library(name: "VigilControl", targets: ["VigilControl"]),
        .library(name: "VigilLive", targets: ["VigilLive"]),
        .library(name: "VigilReport", targets: ["VigilReport"]),
        .library(name: "VigilAudioIO", targets: ["VigilAudioIO"]),
        .library(name: "VigilAnalysis", targets: ["VigilAnalysis"]),
        .library(name: "VigilMedia", targets: ["VigilMedia"]),
        .library(name: "VigilMQTT", targets: ["VigilMQTT"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Already in the graph through Hummingbird; named here for the live tests' HTTP client.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
            dependencies: ["CFFTW3"],
            swiftSettings: nativeFlags),
        .target(name: "VigilLearning", dependencies: ["VigilCore", "VigilDSP", "VigilScoring"], swiftSettings: nativeFlags),
        .target(name: "VigilDetectors", dependencies: ["VigilCore", "VigilDSP", "VigilLearning"], swiftSettings: nativeFlags),
        .target(name: "VigilSynth", dependencies: ["VigilCore"], swiftSettings: nativeFlags),
        .target(name: "VigilScoring", dependencies: ["VigilCore"], swiftSettings: nativeFlags),
        .target(
            name: "VigilAnalysis",
            dependencies: ["VigilCore", "VigilDevice", "VigilEvents", "VigilDSP", "VigilDetectors", "VigilVision"],
            swiftSettings: nativeFlags),

        .target(name: "VigilImaging", dependencies: ["VigilCore", "CPNG"], swiftSettings: nativeFlags),
        .target(
            name: "VigilVision",
            dependencies: ["VigilCore", "VigilGeometry", "VigilDevice", "VigilImaging"], swiftSettings: nativeFlags),

        .target(name: "VigilReport", dependencies: ["VigilCore", "VigilImaging", "VigilDSP"], swiftSettings: nativeFlags),

        // System code: files.
        .target(name: "VigilFrameIO", dependencies: ["VigilCore", "VigilImaging"], swiftSettings: nativeFlags),
        .target(name: "VigilAudioIO", dependencies: ["VigilCore", "CSndFile"], swiftSettings: nativeFlags),
        // Containers and network streams through FFmpeg's libraries (docs/video.md).
        .target(name: "VigilMedia", dependencies: ["VigilFrameIO", "VigilImaging", "CFFmpeg"], swiftSettings: nativeFlags),

        // System code: network. MQTT out through libmosquitto, with the Home Assistant mapping (docs/mqtt.md).
        .target(
            name: "VigilMQTT",
            dependencies: ["VigilCore", "VigilDevice", "CMosquitto", .product(name: "Logging", package: "swift-log")],
            swiftSettings: nativeFlags),

        // The live device's control commands (request bodies -> validated device changes): pure,
        // no server code, so the control-payload fuzz target needs no NIO build.
        .target(name: "VigilControl", dependencies: ["VigilCore", "VigilDevice"], swiftSettings: nativeFlags),

        // The live event generator's HTTP server.
        .target(
            name: "VigilLive",
            dependencies: [
                "VigilControl", "VigilCore", "VigilDevice", "VigilEvents", "VigilAnalysis", "VigilDetectors", "VigilSynth", "VigilDSP",
                "VigilVision", "VigilFrameIO", "VigilImaging",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: nativeFlags),

        // Thin command-line frontend.
        .executableTarget(
            name: "vigil",
            dependencies: [
                "VigilCore", "VigilDevice", "VigilEvents", "VigilDSP", "VigilDetectors", "VigilAudioIO",
                "VigilAnalysis", "VigilSynth", "VigilScoring", "VigilLearning", "VigilImaging", "VigilVision",
                "VigilFrameIO", "VigilControl", "VigilLive", "VigilReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
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

        .testTarget(name: "VigilGeometryTests", dependencies: ["VigilGeometry"]),
        .testTarget(name: "VigilDeviceTests", dependencies: ["VigilDevice"]),
        .testTarget(name: "VigilEventsTests", dependencies: ["VigilEvents", "VigilDevice"]),
        .testTarget(name: "VigilDSPTests", dependencies: ["VigilDSP", "VigilSynth"]),
        .testTarget(name: "VigilAudioIOTests", dependencies: ["VigilAudioIO", "VigilSynth"]),
        .testTarget(name: "VigilDetectorsTests", dependencies: ["VigilDetectors", "VigilDSP", "VigilAudioIO", "VigilSynth"]),
        .testTarget(name: "VigilScoringTests", dependencies: ["VigilScoring"]),
        .testTarget(
            name: "VigilLearningTests",
            dependencies: ["VigilLearning", "VigilDetectors", "VigilAudioIO", "VigilSynth", "VigilScoring"]),
        .testTarget(name: "VigilImagingTests", dependencies: ["VigilImaging"]),
        .testTarget(name: "VigilReportTests", dependencies: ["VigilReport", "VigilImaging", "VigilDSP", "VigilSynth", "VigilCore"]),
        .testTarget(name: "VigilVisionTests", dependencies: ["VigilVision", "VigilImaging", "VigilDevice", "VigilEvents"]),
        .testTarget(name: "VigilFrameIOTests", dependencies: ["VigilFrameIO", "VigilImaging"]),
        .testTarget(name: "VigilMediaTests", dependencies: ["VigilMedia", "VigilFrameIO", "VigilImaging", "VigilAudioIO"]),
        .testTarget(name: "VigilMQTTTests", dependencies: ["VigilMQTT", "VigilCore", "VigilDevice"]),
        .testTarget(
            name: "VigilLiveTests",
            dependencies: [
                "VigilLive", "VigilControl", "VigilDevice", "VigilSynth", "VigilAudioIO", "VigilFrameIO", "VigilImaging",
                "VigilServerTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            ]),
        .testTarget(name: "VigilCLITests", dependencies: ["VigilAnalysis", "VigilAudioIO", "VigilLearning", "VigilSynth"]),
        .testTarget(
            name: "VigilHostileInputTests",
            dependencies: [
                "VigilCore", "VigilDevice", "VigilAudioIO", "VigilImaging", "VigilFrameIO", "VigilSynth", "VigilControl", "VigilLive",
                "VigilMedia", "VigilServerTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            exclude: ["Corpus"]),
    ]
)
