// Vision benchmarks (package-benchmark, ordo-one/benchmark).
//
//   cd Benchmarks && swift package --allow-writing-to-package-directory benchmark --target VisionBenchmarks
//
// - "Motion+zones WxH": one iteration = one frame through MotionDetector (decimation,
//   background model, global-change tests, blobs, attribution to four 6-vertex zones, a privacy
//   zone and the outside region); the throughput metric is frames per second on one core.
// - "PIP 12-vertex": one iteration = 1,048,576 points tested against a 12-vertex star with
//   PolygonPointTester; points per second = throughput x 1,048,576.
// The workloads are defined once in VigilVision (VisionBenchmarkWorkload) and shared with
// `vigil bench kernels`.

import Benchmark
import VigilCore
import VigilVision

let benchmarks: @Sendable () -> Void = {
    for (width, height) in [(640, 360), (1280, 720), (1920, 1080)] {
        Benchmark(
            "Motion+zones \(width)x\(height) (frames)",
            configuration: .init(
                metrics: [.throughput, .wallClock, .cpuTotal, .instructions, .mallocCountTotal], maxDuration: .seconds(5)),
            closure: { benchmark, state in
                for _ in benchmark.scaledIterations { blackHole(state.step()) }
            },
            setup: { VisionBenchmarkWorkload.MotionBench(width: width, height: height) })
    }

    Benchmark(
        "PIP 12-vertex (1,048,576 points per iteration)",
        configuration: .init(metrics: [.throughput, .wallClock, .instructions], maxDuration: .seconds(5)),
        closure: { benchmark, state in
            for _ in benchmark.scaledIterations { blackHole(state.step()) }
        },
        setup: { VisionBenchmarkWorkload.PointBench() })
}
