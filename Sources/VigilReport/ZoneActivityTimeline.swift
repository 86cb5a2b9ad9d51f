import VigilImaging

/// Motion per activity zone over time, reduced for plotting: a bounded number of time columns
/// holding the largest moving fraction seen per zone (like ``SpectrogramSummary``, neighbouring
/// columns merge when a recording outlasts the columns).
public struct ZoneActivityTimeline: Sendable {
    /// One lane: a zone (or the area outside every zone).
    public struct Lane: Sendable, Hashable {
        /// Zone ID, nil for outside every zone.
        public var zoneID: UInt16?
        /// Label drawn left of the lane.
        public var name: String
        /// Zone colour.
        public var color: RGBColor

        /// Creates a lane.
        public init(zoneID: UInt16?, name: String, color: RGBColor) {
            self.zoneID = zoneID
            self.name = name
            self.color = color
        }
    }

    /// The lanes, in drawing order.
    public let lanes: [Lane]
    /// Most columns kept.
    public let columnCapacity: Int
    /// Seconds covered by one column.
    public private(set) var secondsPerColumn: Double
    /// Columns filled so far.
    public private(set) var columnCount = 0
    private var values: [Float]  // column * lanes.count + lane

    /// A timeline for `lanes` of a recording expected to last about `expectedDuration` seconds.
    public init(lanes: [Lane], expectedDuration: Double, columns: Int = 1200) {
        self.lanes = lanes
        columnCapacity = max(columns, 2)
        secondsPerColumn = expectedDuration > 0 ? expectedDuration / Double(columnCapacity) : 0.05
        values = [Float](repeating: 0, count: columnCapacity * max(lanes.count, 1))
    }

    /// Records the moving fraction (0...1) of each zone at media time `time`.
    public mutating func add(time: Double, fractions: [UInt16?: Double]) {
        var column = Int(max(time, 0) / secondsPerColumn)
        while column >= columnCapacity {
            for c in 0..<(columnCapacity / 2) {
                for l in lanes.indices {
                    values[c * lanes.count + l] = max(values[2 * c * lanes.count + l], values[(2 * c + 1) * lanes.count + l])
                }
            }
            for i in (columnCapacity / 2 * lanes.count)..<values.count { values[i] = 0 }
            columnCount = (columnCount + 1) / 2
            secondsPerColumn *= 2
            column = Int(max(time, 0) / secondsPerColumn)
        }
        columnCount = max(columnCount, column + 1)
        for (l, lane) in lanes.enumerated() {
            if let f = fractions[lane.zoneID] { values[column * lanes.count + l] = max(values[column * lanes.count + l], Float(f)) }
        }
    }

    /// The largest moving fraction of lane `lane` in `column`.
    public func value(column: Int, lane: Int) -> Float { values[column * lanes.count + lane] }
}
