import VigilCore
import VigilGeometry

/// The workloads behind the published motion and point-in-polygon figures, shared by the
/// package-benchmark suite (Benchmarks/VisionBenchmarks) and `vigil bench kernels`, so both
/// measure exactly the same thing: synthetic frames (textured background, sensor noise, a
/// moving square) through ``MotionDetector`` with four 6-vertex zones, a privacy zone and the
/// outside region; and 1,048,576 random grid points against a 12-vertex star.
public enum VisionBenchmarkWorkload {
    /// Deterministic frames of `width` x `height`: textured gradient, ±2 noise, a bright square
    /// crossing the picture.
    static func syntheticFrames(width: Int, height: Int, count: Int) -> [[UInt8]] {
        var state: UInt64 = 12_345
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        var base = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { base[y * width + x] = UInt8(60 + x * 100 / width + Int(next() % 30)) }
        }
        var frames: [[UInt8]] = []
        for i in 0..<count {
            var frame = base
            for j in frame.indices { frame[j] = UInt8(clamping: Int(frame[j]) + Int(next() % 5) - 2) }
            let side = height / 6, left = (i * width / count) % (width - side), top = height / 3
            for y in top..<(top + side) {
                for x in left..<(left + side) { frame[y * width + x] = 230 }
            }
            frames.append(frame)
        }
        return frames
    }

    /// Four 6-vertex motion zones, one privacy zone, motion outside zones reported.
    public static func benchmarkConfiguration() -> MotionConfiguration {
        let zones: [ActivityZone] = (0..<4).map { k in
            let x0 = k * 500, x1 = k * 500 + 480
            return ActivityZone(
                id: UInt16(k + 1), vertices: [(x0, 200), (x1, 300), (x1, 1800), ((x0 + x1) / 2, 2000), (x0, 1700), (x0 + 40, 900)],
                sensitivity: Sensitivity(7))
        }
        let privacy = ActivityZone(id: 9, vertices: [(1800, 0), (2048, 0), (2048, 300), (1800, 300)], sensitivity: .medium)
        return MotionConfiguration(zones: zones, privacyZones: [privacy], outsideSensitivity: .medium)
    }

    /// A 12-vertex star around the grid centre.
    public static func twelveVertexStar() -> PolygonPointTester {
        var vertices: [(x: Float, y: Float)] = []
        for k in 0..<12 {
            let angle = Double(k) * 2 * Double.pi / 12
            let radius = k % 2 == 0 ? 900.0 : 600.0
            vertices.append((Float(1024 + radius * cosine(angle)), Float(1024 + radius * sine(angle))))
        }
        return PolygonPointTester(vertices: vertices)
    }

    // Taylor-free trigonometry without Foundation: the star only needs 12 exact-enough points.
    static func cosine(_ x: Double) -> Double { sine(x + Double.pi / 2) }
    static func sine(_ x: Double) -> Double {
        var r = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if r > Double.pi { r -= 2 * Double.pi }
        var term = r, sum = r
        for n in stride(from: 3, through: 31, by: 2) {
            term *= -r * r / Double((n - 1) * n)
            sum += term
        }
        return sum
    }

    /// State of a motion benchmark: the detector keeps its model across iterations; each
    /// iteration processes the next frame of a 60-frame loop.
    /// One motion benchmark: the detector keeps its model; each ``step()`` processes the next
    /// frame of a 60-frame loop at 30 frames per second.
    public final class MotionBench {
        /// Frame width.
        public let width: Int
        /// Frame height.
        public let height: Int
        let frames: [[UInt8]]
        let detector = MotionDetector(configuration: VisionBenchmarkWorkload.benchmarkConfiguration())
        var index = 0
        var time = 0.0

        /// Frames of `width` x `height`; the first frame initialises the model.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
            frames = VisionBenchmarkWorkload.syntheticFrames(width: width, height: height, count: 60)
            _ = step()  // the first frame only initialises the model
        }

        /// Processes one frame; returns the number of zone results.
        public func step() -> Int {
            let frame = frames[index % frames.count]
            index += 1
            time += 1.0 / 30
            let (w, h, t) = (width, height, time)
            return frame.withUnsafeBufferPointer { detector.process(luma: $0, width: w, height: h, stride: w, time: t) }.zones.count
        }
    }

    /// State of the point-in-polygon benchmark: 1,048,576 random grid points.
    /// The point-in-polygon benchmark; each ``step()`` tests all points once.
    public final class PointBench {
        let tester = VisionBenchmarkWorkload.twelveVertexStar()
        /// The points' x coordinates.
        public let xs: [Float]
        let ys: [Float]
        var results: [UInt8]

        /// `count` random points on the 2048 grid.
        public init(count: Int = 1 << 20) {
            var state: UInt64 = 99
            var xs = [Float](repeating: 0, count: count), ys = [Float](repeating: 0, count: count)
            for i in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                xs[i] = Float(state >> 40) / Float(1 << 24) * 2048
                state = state &* 6_364_136_223_846_793_005 &+ 1
                ys[i] = Float(state >> 40) / Float(1 << 24) * 2048
            }
            self.xs = xs
            self.ys = ys
            results = [UInt8](repeating: 0, count: count)
        }

        /// Tests every point once; returns one result (so the work is not optimised away).
        public func step() -> UInt8 {
            let tester = self.tester
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    results.withUnsafeMutableBufferPointer { tester.contains(xs: x, ys: y, into: $0) }
                }
            }
            return results[results.count / 2]
        }
    }
}
