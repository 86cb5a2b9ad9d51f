import ArgumentParser
import Foundation
import VigilDevice
import VigilImaging
import VigilPipeline
import VigilVision

/// `vigil zones`: zone tools.
struct ZonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract: "Work with a device's activity and privacy zones.",
        subcommands: [Draw.self])

    /// `vigil zones draw DEVICE.json --frame FRAME.png --out overlay.png`.
    struct Draw: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw a device's zones over a frame.",
            discussion: """
                Zones are outlined in their colours (a palette colour when a zone has none) and labelled with \
                their ID and name; privacy zones are black. The frame is mapped to the device's grid as in \
                analysis (the grid spans the whole frame; imageRotation and flips are honoured). \
                See docs/video.md.
                Example: vigil zones draw Samples/front-door.json --frame frame.png --out overlay.png
                """)

        @Argument(help: "The device file (JSON).")
        var device: String

        @Option(help: "The frame to draw on (PNG).")
        var frame: String

        @Option(help: "Where to write the overlay (PNG).")
        var out: String

        @Flag(help: "Do not label zones.")
        var noLabels = false

        func run() throws {
            let loaded: LoadedDevice
            do {
                loaded = try LoadedDevice.load(path: device)
            } catch let failure as DeviceLoadFailure {
                FileHandle.standardError.write(Data(failure.description.utf8))
                throw ExitCode(ExitStatus.usage)
            }
            do {
                try ZoneOverlayFile.draw(device: loaded.device, frame: frame, out: out, labels: !noLabels)
            } catch {
                AnalyzeCommand.stderr("error: \(error)")
                throw ExitCode(ExitStatus.someInputsFailed)
            }
        }
    }
}
