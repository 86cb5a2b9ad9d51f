import VigilImaging

/// Recognises a camera's switch between colour and monochrome (the IR cut filter moving at
/// dusk and dawn) from the chroma of consecutive pictures. The motion detector works on luma and
/// sees such a switch as a lighting or whole-frame change; this tells the trace which it was.
public enum ColourModeSwitch {
    /// Mean distance of the chroma samples from neutral (`|Cb − 128| + |Cr − 128|`, every
    /// fourth sample), or `nil` for a picture without chroma planes.
    public static func chromaSpread(_ picture: YCbCrImage) -> Double? {
        guard !picture.cb.isEmpty, picture.cb.count == picture.cr.count else { return nil }
        var total = 0, count = 0
        var i = 0
        while i < picture.cb.count {
            total += abs(Int(picture.cb[i]) - 128) + abs(Int(picture.cr[i]) - 128)
            count += 1
            i += 4
        }
        return count > 0 ? Double(total) / Double(count) : nil
    }

    /// Chroma spread at or below which a picture counts as monochrome (IR night mode pictures
    /// are neutral up to compression noise).
    public static let monochromeSpread = 1.5
    /// Chroma spread at or above which a picture counts as colour.
    public static let colourSpread = 4.0

    /// Whether going from a picture of chroma spread `previous` to one of `current` switches
    /// between colour and monochrome.
    public static func isSwitch(from previous: Double?, to current: Double?) -> Bool {
        guard let previous, let current else { return false }
        return (previous <= monochromeSpread && current >= colourSpread) || (previous >= colourSpread && current <= monochromeSpread)
    }
}
