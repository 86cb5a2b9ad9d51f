// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for the parsers that read outside input, kept out of the root package so
// that `make test` never builds them. Build and run from the root with `make fuzz` (see
// docs/fuzzing.md); by hand:
//   cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
//   .build/release/FuzzPNG Corpus/FuzzPNG -max_total_time=60
// `-sanitize=fuzzer` instruments every Swift module (Vigil's and its dependencies') for coverage
// and links libFuzzer; each target's `main` hands control to libFuzzer through
// `LLVMFuzzerRunDriver` (SwiftPM renames an executable's `main` on Linux, so libFuzzer's own
// `main` cannot be used). lld is needed: gold fails on the instrumented objects.
// Every target links Vigil's analysis library product (the parsers are modules of it).
let fuzzTargets = ["FuzzDeviceFile", "FuzzAudioFile", "FuzzY4M", "FuzzPNG", "FuzzControlRequest"]

let package = Package(
    name: "VigilFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Vigil", path: "..")],
    targets: [
        // Declares libFuzzer's LLVMFuzzerRunDriver (libFuzzer itself is linked by -sanitize=fuzzer).
        .target(name: "CFuzzerDriver"),
        .target(name: "FuzzSupport", dependencies: ["CFuzzerDriver"]),
    ]
        + fuzzTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: ["FuzzSupport", "CFuzzerDriver", .product(name: "VigilPipeline", package: "Vigil")])
        }
)
