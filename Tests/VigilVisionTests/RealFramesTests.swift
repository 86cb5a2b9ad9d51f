import Foundation
import Testing
import VigilCore
import VigilImaging
import VigilVision

/// ../shared/data next to the package root, if present.
private let sharedData: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
private let highway = sharedData.appendingPathComponent("video/bgslibrary-highway")
private let carVideo = sharedData.appendingPathComponent("video/intel-sample-videos/car-detection.mp4")
private let hasHighway = FileManager.default.fileExists(atPath: highway.appendingPathComponent("1.png").path)
private let ffmpeg = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first { FileManager.default.isExecutableFile(atPath: $0) }
private let hasCarVideo = FileManager.default.fileExists(atPath: carVideo.path) && ffmpeg != nil
private let motionSets = sharedData.appendingPathComponent("motion")
private let hasMotionSets =
    FileManager.default.fileExists(atPath: motionSets.appendingPathComponent("HallAndMonitor/input.mp4").path) && ffmpeg != nil

/// The luma frames of `video` (decoded by ffmpeg to gray), `width` x `height` each.
private func grayFrames(_ video: URL, width: Int, height: Int) throws -> [[UInt8]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg!)
    process.arguments = [
        "-v", "error", "-nostdin", "-i", video.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
    process.waitUntilExit()
    let size = width * height
    return (0..<(data.count / size)).map { Array(data[($0 * size)..<(($0 + 1) * size)]) }
}

/// The first channel of a label PNG (ground truth, ROI).
private func labelPlane(_ url: URL) throws -> [UInt8] {
    let image = try PNGCodec.decode([UInt8](try Data(contentsOf: url)), source: url.lastPathComponent)
    let channels = image.format.channels
    return channels == 1 ? image.pixels : (0..<(image.width * image.height)).map { image.pixels[$0 * channels] }
}

/// A zone from frame-pixel corners of a W x H frame (grid 0...2048).
private func zone(_ id: UInt16, x0: Int, y0: Int, x1: Int, y1: Int, width: Int, height: Int) -> ActivityZone {
    let gx = { (x: Int) in x * 2048 / (width - 1) }, gy = { (y: Int) in y * 2048 / (height - 1) }
    return ActivityZone(id: id, vertices: [(gx(x0), gy(y0)), (gx(x1), gy(y0)), (gx(x1), gy(y1)), (gx(x0), gy(y1))], sensitivity: .medium)
}

@Suite("Real frames from ../shared/data")
struct RealFramesTests {
    @Test("highway (bgslibrary): motion on the road, none on the hillside or in the sky", .enabled(if: hasHighway, "needs ../shared/data"))
    func highwayFrames() throws {
        // 320 x 240: the road occupies x >= 130 below y = 60; the hillside (x < 100, y > 100)
        // and the sky/treeline band (y < 45) never move.
        let config = MotionConfiguration(
            zones: [
                zone(1, x0: 150, y0: 70, x1: 319, y1: 239, width: 320, height: 240),
                zone(2, x0: 0, y0: 100, x1: 100, y1: 239, width: 320, height: 240),
                zone(3, x0: 0, y0: 0, x1: 319, y1: 45, width: 320, height: 240),
            ], outsideSensitivity: nil)
        let detector = MotionDetector(configuration: config)
        var roadFrames = 0
        for index in 1...51 {
            let data = try Data(contentsOf: highway.appendingPathComponent("\(index).png"))
            let image = try PNGCodec.decode([UInt8](data), source: "\(index).png")
            let result = detector.process(image, time: Double(index - 1) / 10)
            let zones = Set(result.zones.compactMap(\.zoneID))
            if zones.contains(1) { roadFrames += 1 }
            #expect(!zones.contains(2) && !zones.contains(3), "frame \(index): motion in a quiet zone \(zones)")
            #expect(result.state != .globalChange, "frame \(index)")
        }
        #expect(roadFrames >= 35, "road motion in \(roadFrames) of 50 frames")
    }

    @Test(
        "car park (Intel car-detection.mp4 through ffmpeg): cars found, the empty right side stays quiet",
        .enabled(if: hasCarVideo, "needs ../shared/data and ffmpeg"))
    func carVideoFrames() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg!)
        process.arguments = ["-v", "error", "-i", carVideo.path, "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let width = 768, height = 432, frameSize = width * height
        let frames = data.count / frameSize
        #expect(frames > 300)
        // Cars drive through the middle (x 100...560); nothing moves right of x = 600.
        let config = MotionConfiguration(
            zones: [
                zone(1, x0: 100, y0: 0, x1: 560, y1: 431, width: width, height: height),
                zone(2, x0: 600, y0: 0, x1: 767, y1: 431, width: width, height: height),
            ], outsideSensitivity: nil)
        let detector = MotionDetector(configuration: config)
        var carFrames = 0
        let bytes = [UInt8](data)
        for index in 0..<frames {
            let result = bytes.withUnsafeBufferPointer { buffer in
                detector.process(
                    luma: UnsafeBufferPointer(rebasing: buffer[(index * frameSize)..<((index + 1) * frameSize)]), width: width,
                    height: height, stride: width, time: Double(index) / 12.5)
            }
            let zones = Set(result.zones.compactMap(\.zoneID))
            if zones.contains(1) { carFrames += 1 }
            #expect(!zones.contains(2), "frame \(index): motion on the empty right side")
        }
        #expect(carFrames >= 120, "car motion in \(carFrames) frames")
    }

    @Test(
        "ground-truth sequences (CDnet rules): mean F-measure at least 0.55, every sequence at least 0.4",
        .enabled(if: hasMotionSets, "needs ../shared/data/motion and ffmpeg"))
    func groundTruthSequences() throws {
        // Frame i against gt i, positives 255, negatives 0 and 50, the rest and outside ROI.png not scored.
        let names = ["Board", "CAVIAR1", "Foliage", "HallAndMonitor", "HighwayI", "IBMtest2", "Snellen"]
        var fMeasures: [String: Double] = [:]
        for name in names {
            let folder = motionSets.appendingPathComponent(name)
            let info =
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("sequence.json"))) as! [String: Any]
            let width = info["width"] as! Int, height = info["height"] as! Int
            let range = info["scoredFrames"] as! [Int]
            let roiURL = folder.appendingPathComponent("ROI.png")
            let roi = FileManager.default.fileExists(atPath: roiURL.path) ? try labelPlane(roiURL) : nil
            let detector = MotionDetector(configuration: MotionConfiguration())
            var mask = [UInt8](repeating: 0, count: width * height)
            var tp = 0, fp = 0, fn = 0
            for (index, frame) in try grayFrames(folder.appendingPathComponent("input.mp4"), width: width, height: height).enumerated() {
                _ = frame.withUnsafeBufferPointer {
                    detector.process(luma: $0, width: width, height: height, stride: width, time: Double(index) / 25)
                }
                mask.withUnsafeMutableBufferPointer { _ = detector.writeMotionMask(into: $0, width: width, height: height) }
                guard index >= range[0] && index <= range[1] else { continue }
                let truth = try labelPlane(folder.appendingPathComponent("groundtruth/gt\(String(format: "%06d", index)).png"))
                for i in 0..<(width * height) where roi.map({ $0[i] != 0 }) ?? true {
                    let detected = mask[i] == 255
                    switch truth[i] {
                    case 255: if detected { tp += 1 } else { fn += 1 }
                    case 0, 50: if detected { fp += 1 }
                    default: break
                    }
                }
            }
            fMeasures[name] = Double(2 * tp) / Double(max(2 * tp + fp + fn, 1))
        }
        let mean = fMeasures.values.reduce(0, +) / Double(names.count)
        #expect(mean >= 0.55, "mean F \(mean): \(fMeasures)")
        for (name, f) in fMeasures { #expect(f >= 0.4, "\(name): F \(f)") }
    }
}
