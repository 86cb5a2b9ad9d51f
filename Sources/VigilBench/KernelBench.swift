import VigilCore
import VigilDSP
import VigilPipeline
import VigilSynth
import VigilVision

/// `vigil bench kernels`: STFT frames per second, point-in-polygon points per second and motion
/// plus zone attribution frames per second at three sizes, each on one core (thread CPU time),
/// on the workloads of the package-benchmark suites in Benchmarks/.
package struct KernelBench {
    /// A timed kernel.
    package enum Kernel: String, CaseIterable, Sendable {
        case stft, pip, motion640, motion1280, motion1920
    }

    /// The kernels to time.
    package var kernels: [Kernel]
    /// Runs per kernel; the best is reported.
    package var runs: Int
    /// Minimum seconds per run.
    package var seconds: Double
    /// Fixed work instead of timed runs: exactly this many units per kernel, once.
    package var iterations: Int?

    /// A benchmark of `kernels`.
    package init(kernels: [Kernel] = Kernel.allCases, runs: Int, seconds: Double, iterations: Int? = nil) {
        self.kernels = kernels
        self.runs = runs
        self.seconds = seconds
        self.iterations = iterations
    }

    /// Times the kernels; returns the JSON object `vigil bench kernels` prints.
    package func run() -> JSONValue {
        var results: [(String, JSONValue)] = []
        let kernels = self.kernels
        // With --iterations: one run of exactly that many units (seconds = 0 stops after the first unit batch).
        let runs = iterations == nil ? self.runs : 1
        let seconds = iterations == nil ? self.seconds : 0
        Self.fixedUnits = iterations
        if kernels.contains(.stft) {
            results.append(("stftFramesPerSecond", .number(Self.stftFramesPerSecond(runs: runs, seconds: seconds).rounded())))
        }
        if kernels.contains(.pip) {
            results.append(("pointInPolygonPointsPerSecond", .number(Self.pipPointsPerSecond(runs: runs, seconds: seconds).rounded())))
        }
        var motion: [(String, JSONValue)] = []
        for (kernel, w, h) in [(Kernel.motion640, 640, 360), (.motion1280, 1280, 720), (.motion1920, 1920, 1080)]
        where kernels.contains(kernel) {
            motion.append(("\(w)x\(h)", .number(Self.motionFramesPerSecond(width: w, height: h, runs: runs, seconds: seconds).rounded())))
        }
        if !motion.isEmpty { results.append(("motionFramesPerSecond", .object(JSONObject(motion)))) }
        if let iterations { results.append(("iterations", .number(Double(iterations)))) }
        results.append(("cores", .number(1)))
        return JSONValue.object(JSONObject(results))
    }

    /// With `--iterations`: the exact number of calls of each kernel's body.
    nonisolated(unsafe) static var fixedUnits: Int?

    static func timed(runs: Int, seconds: Double, _ body: () -> Int) -> Double {
        var best = 0.0
        for _ in 0..<runs {
            var units = 0
            let start = threadCPUSeconds()
            var elapsed = 0.0
            if let fixed = fixedUnits {
                for _ in 0..<fixed { units += body() }
                elapsed = max(threadCPUSeconds() - start, 1e-9)
            }
            while fixedUnits == nil && elapsed < seconds {
                units += body()
                elapsed = threadCPUSeconds() - start
            }
            best = max(best, Double(units) / elapsed)
        }
        return best
    }

    static func stftFramesPerSecond(runs: Int, seconds: Double) -> Double {
        var generator = SeededGenerator(seed: 1)
        var signal = SignalBuffer(sampleRate: 44_100, duration: 10)
        signal.addNoise(dBFS: -20, generator: &generator)
        let config = STFTConfiguration(sampleRate: 44_100, fftSize: 1024, hopSize: 512)
        return timed(runs: runs, seconds: seconds) {
            let stft = ShortTimeFourierTransform(configuration: config)
            var sink: Float = 0
            signal.samples.withUnsafeBufferPointer { b in stft.process(b) { sink += $0.power[10] } }
            precondition(sink.isFinite)
            return stft.frameCount
        }
    }

    /// Points per second against the 12-vertex zone of the shared workload.
    static func pipPointsPerSecond(runs: Int, seconds: Double) -> Double {
        let bench = VisionBenchmarkWorkload.PointBench()
        var sink: UInt8 = 0
        let rate = timed(runs: runs, seconds: seconds) {
            sink &+= bench.step()
            return bench.xs.count
        }
        precondition(sink < 255 || rate > 0)
        return rate
    }

    /// Motion plus zone attribution frames per second at `width` x `height` (shared workload).
    static func motionFramesPerSecond(width: Int, height: Int, runs: Int, seconds: Double) -> Double {
        let bench = VisionBenchmarkWorkload.MotionBench(width: width, height: height)
        var sink = 0
        let rate = timed(runs: runs, seconds: seconds) {
            sink &+= bench.step()
            return 1
        }
        precondition(sink >= 0)
        return rate
    }
}
