// swift-tools-version:6.1
import PackageDescription

// Benchmarks of the Vigil alarm detectors, kept out of the root package. Run from this directory:
//   swift run -c release AlarmDetectorBenchmarks
//
// This is a plain executable timed with ContinuousClock (best of N runs), not a
// package-benchmark (ordo-one/benchmark) suite: on Linux with Swift 6.3, ordo-one/benchmark
// 1.38.1 always depends on ordo-one/swift-runtime-interposer, which the build machine's
// package mirror does not hold, so the dependency graph cannot be resolved offline.
let package = Package(
    name: "VigilBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Vigil", path: "..")
    ],
    targets: [
        .target(
            name: "AlarmBenchmarkSupport",
            dependencies: [
                .product(name: "VigilCore", package: "Vigil"),
                .product(name: "VigilDSP", package: "Vigil"),
                .product(name: "VigilDetectors", package: "Vigil"),
                .product(name: "VigilAudioIO", package: "Vigil"),
                .product(name: "VigilSynth", package: "Vigil"),
            ]),
        .executableTarget(
            name: "AlarmDetectorBenchmarks",
            dependencies: ["AlarmBenchmarkSupport", .product(name: "VigilCore", package: "Vigil")]),
    ]
)
