import Foundation
import VigilDevice
import VigilImaging
import VigilVision

/// `vigil zones draw`: a PNG frame with the device's zones drawn over it (``ZoneOverlay``),
/// written as a PNG.
public enum ZoneOverlayFile {
    /// Why the overlay could not be drawn: names the file and the reason.
    public struct DrawError: Error, CustomStringConvertible {
        /// The message.
        public var description: String
    }

    /// Draws `device`'s zones (labelled when `labels`) over the PNG `frame` and writes `out`.
    public static func draw(device: Device, frame: String, out: String, labels: Bool) throws(DrawError) {
        guard let data = FileManager.default.contents(atPath: frame) else {
            throw DrawError(description: "\(frame): cannot read the frame")
        }
        do {
            let image = try PNGCodec.decode([UInt8](data), source: frame)
            let bytes = try PNGCodec.encode(ZoneOverlay(device: device).render(image, labels: labels), destination: out)
            try Data(bytes).write(to: URL(fileURLWithPath: out))
        } catch let error as PNGError {
            throw DrawError(description: "\(error)")
        } catch {
            throw DrawError(description: "\(out): cannot write: \(error.localizedDescription)")
        }
    }
}
