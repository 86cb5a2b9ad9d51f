import VigilDSP

/// A spectrogram reduced for plotting: a bounded number of time columns by log-spaced frequency
/// bands (maximum power per cell), plus the level per column. Fed every STFT frame of a
/// recording in order; memory stays bounded whatever the length (when the columns run out,
/// neighbours are merged and each column covers twice the time).
public struct SpectrogramSummary: Sendable {
    /// Frequency bands (rows), low to high.
    public let bandCount: Int
    /// Lower edge of the lowest band (Hz).
    public let minimumFrequency: Double
    /// Upper edge of the highest band (Hz).
    public let maximumFrequency: Double
    /// Most columns kept.
    public let columnCapacity: Int
    /// Seconds covered by one column.
    public private(set) var secondsPerColumn: Double
    /// Columns filled so far.
    public private(set) var columnCount = 0
    /// Media time covered (end of the last frame seen), seconds.
    public private(set) var duration: Double = 0

    private var bandBins: [(lower: Int, upper: Int)] = []
    private var configuredBins = -1
    private var cells: [Float]  // column-major: column * bandCount + band, max power
    private var levelMax: [Float]
    private var levelSum: [Float]
    private var levelCount: [Int32]

    /// A summary for a recording expected to last about `expectedDuration` seconds (0 if unknown),
    /// with up to `columns` columns and `bands` bands spanning `minimumFrequency`...`maximumFrequency`
    /// (clamped to the Nyquist frequency of the frames).
    public init(
        expectedDuration: Double, columns: Int = 1200, bands: Int = 96, minimumFrequency: Double = 50, maximumFrequency: Double = 16_000
    ) {
        bandCount = max(bands, 1)
        self.minimumFrequency = minimumFrequency
        self.maximumFrequency = maximumFrequency
        columnCapacity = max(columns, 2)
        secondsPerColumn = expectedDuration > 0 ? expectedDuration / Double(columnCapacity) : 0.05
        cells = [Float](repeating: 0, count: columnCapacity * bandCount)
        levelMax = [Float](repeating: -120, count: columnCapacity)
        levelSum = [Float](repeating: 0, count: columnCapacity)
        levelCount = [Int32](repeating: 0, count: columnCapacity)
    }

    /// The upper frequency actually shown for frames at `sampleRate`.
    public func topFrequency(sampleRate: Double) -> Double { min(maximumFrequency, sampleRate / 2) }

    /// The centre frequency of `band` for frames at `sampleRate`.
    public func frequency(ofBand band: Int, sampleRate: Double) -> Double {
        let top = topFrequency(sampleRate: sampleRate)
        let ratio = top / minimumFrequency
        return minimumFrequency * pow(ratio, (Double(band) + 0.5) / Double(bandCount))
    }

    /// Adds one frame.
    public mutating func add(_ frame: SpectralFrame) {
        let bins = frame.power.count
        if bins != configuredBins { configureBands(frame: frame) }
        let time = frame.centerTime
        var column = Int(time / secondsPerColumn)
        while column >= columnCapacity {
            halveResolution()
            column = Int(time / secondsPerColumn)
        }
        column = max(column, 0)
        columnCount = max(columnCount, column + 1)
        duration = max(duration, frame.startTime + Double(frame.configuration.windowSize) / frame.configuration.sampleRate)
        let base = column * bandCount
        let power = frame.power
        cells.withUnsafeMutableBufferPointer { c in
            for band in 0..<bandCount {
                let range = bandBins[band]
                var peak = c[base + band]
                for k in range.lower...range.upper where power[k] > peak { peak = power[k] }
                c[base + band] = peak
            }
        }
        let level = frame.levelDBFS
        levelMax[column] = max(levelMax[column], level)
        levelSum[column] += level
        levelCount[column] += 1
    }

    /// Power (linear, max over the cell) at `column`, `band`.
    public func power(column: Int, band: Int) -> Float { cells[column * bandCount + band] }

    /// Highest frame level in `column` (dBFS), or nil for an empty column.
    public func maximumLevel(column: Int) -> Float? { levelCount[column] > 0 ? levelMax[column] : nil }

    /// Mean frame level in `column` (dBFS), or nil for an empty column.
    public func meanLevel(column: Int) -> Float? { levelCount[column] > 0 ? levelSum[column] / Float(levelCount[column]) : nil }

    /// Each band covers the bins between its log-spaced edges (at least the bin nearest its centre).
    private mutating func configureBands(frame: SpectralFrame) {
        configuredBins = frame.power.count
        let sampleRate = frame.configuration.sampleRate
        let top = topFrequency(sampleRate: sampleRate)
        let binWidth = frame.configuration.binWidth
        let ratio = top / minimumFrequency
        bandBins = (0..<bandCount).map { band in
            let low = minimumFrequency * pow(ratio, Double(band) / Double(bandCount))
            let high = minimumFrequency * pow(ratio, Double(band + 1) / Double(bandCount))
            let centre = (low * high).squareRoot()
            var lower = Int((low / binWidth).rounded(.up))
            var upper = Int((high / binWidth).rounded(.down))
            if upper < lower {
                lower = Int((centre / binWidth).rounded())
                upper = lower
            }
            lower = min(max(lower, 0), configuredBins - 1)
            upper = min(max(upper, lower), configuredBins - 1)
            return (lower, upper)
        }
    }

    private mutating func halveResolution() {
        for c in 0..<(columnCapacity / 2) {
            let a = 2 * c
            let b = 2 * c + 1
            for band in 0..<bandCount {
                cells[c * bandCount + band] = max(cells[a * bandCount + band], cells[b * bandCount + band])
            }
            levelMax[c] = max(levelMax[a], levelMax[b])
            levelSum[c] = levelSum[a] + levelSum[b]
            levelCount[c] = levelCount[a] + levelCount[b]
        }
        for c in (columnCapacity / 2)..<columnCapacity {
            for band in 0..<bandCount { cells[c * bandCount + band] = 0 }
            levelMax[c] = -120
            levelSum[c] = 0
            levelCount[c] = 0
        }
        columnCount = (columnCount + 1) / 2
        secondsPerColumn *= 2
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
