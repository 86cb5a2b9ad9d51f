/// Fixed-point decimal text for numbers in human- and TSV-facing output, independent of locale.
public enum DecimalText {
    /// `x` with exactly `places` decimals (half away from zero); "nan" for non-finite values.
    public static func fixed(_ x: Double, places: Int = 3) -> String {
        guard x.isFinite else { return "nan" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let n = Int64((abs(x) * scale).rounded())
        let whole = n / Int64(scale)
        var fraction = String(n % Int64(scale))
        while fraction.count < places { fraction = "0" + fraction }
        return (x < 0 && n != 0 ? "-" : "") + "\(whole)" + (places > 0 ? "." + fraction : "")
    }
}
