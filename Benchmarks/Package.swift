// swift-tools-version:6.1
import PackageDescription

// Benchmarks of the Vigil kernels and detectors, kept out of the root package so that
// `make test` never builds them. Run from this directory:
//   swift package --allow-writing-to-package-directory benchmark            (package-benchmark suites)
//   swift run -c release AlarmDetectorBenchmarks                             (plain timing executable)
// or `make bench` from the root.
//
// ordo-one/benchmark on Swift 6.3 has two default traits, MallocInterposer and RuntimeInterposer.
// Naming traits replaces the defaults; we name only MallocInterposer because RuntimeInterposer
// pulls ordo-one/swift-runtime-interposer, which this build machine's package mirror does not
// carry. Consequence: malloc counts, instructions and time are measured, ARC retain/release
// counts are not. On a machine that can fetch it, drop `traits:` to get both defaults back.
let package = Package(
    name: "VigilBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Vigil", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KernelBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VigilPipeline", package: "Vigil"),
            ],
            path: "Benchmarks/KernelBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "VisionBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "VigilPipeline", package: "Vigil"),
            ],
            path: "Benchmarks/VisionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // Plain timing executable for the alarm detectors' throughput (best of N runs, CPU time).
        .target(
            name: "AlarmBenchmarkSupport",
            dependencies: [
                .product(name: "VigilPipeline", package: "Vigil")
            ]),
        .executableTarget(
            name: "AlarmDetectorBenchmarks",
            dependencies: ["AlarmBenchmarkSupport", .product(name: "VigilPipeline", package: "Vigil")]),
    ]
)
