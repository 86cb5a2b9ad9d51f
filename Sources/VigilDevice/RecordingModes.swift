import VigilCore

/// The RecordingMode trait: supported modes, the indices of those currently available, and
/// the selected index.
public struct RecordingModes: Sendable, Hashable {
    /// Every mode the device knows, with its limits.
    public private(set) var supportedRecordingModes: [SupportedRecordingMode]
    /// Indices into ``supportedRecordingModes`` that may be selected now.
    public private(set) var availableRecordingModes: [Int]
    /// The selected index; always one of ``availableRecordingModes``.
    public private(set) var selectedRecordingMode: Int

    /// Creates the settings after checking them (see ``validationErrors(supported:available:selected:)``).
    public init(
        supportedRecordingModes: [SupportedRecordingMode], availableRecordingModes: [Int], selectedRecordingMode: Int
    ) throws(MatterCommandError) {
        if let error = Self.validationErrors(
            supported: supportedRecordingModes, available: availableRecordingModes, selected: selectedRecordingMode
        ).first {
            throw error
        }
        self.supportedRecordingModes = supportedRecordingModes
        self.availableRecordingModes = availableRecordingModes
        self.selectedRecordingMode = selectedRecordingMode
    }

    /// The example file's modes: cvr, ebr (60 s), etr (10 s), images, liveView, disabled; 1...5
    /// available; ebr selected.
    public static let standard = RecordingModes(
        unchecked: [
            SupportedRecordingMode(.cvr, maxDuration: 0, expiryDurationSeconds: 2_592_000),
            SupportedRecordingMode(.ebr, maxDuration: 60, expiryDurationSeconds: 2_592_000),
            SupportedRecordingMode(.etr, maxDuration: 10, expiryDurationSeconds: 2_592_000),
            SupportedRecordingMode(.images, maxDuration: 0, expiryDurationSeconds: 2_592_000),
            SupportedRecordingMode(.liveView, maxDuration: 0, expiryDurationSeconds: 0),
            SupportedRecordingMode(.disabled, maxDuration: 0, expiryDurationSeconds: 0),
        ], available: [1, 2, 3, 4, 5], selected: 1)

    private init(unchecked supported: [SupportedRecordingMode], available: [Int], selected: Int) {
        supportedRecordingModes = supported
        availableRecordingModes = available
        selectedRecordingMode = selected
    }

    /// The selected mode.
    public var selectedMode: SupportedRecordingMode { supportedRecordingModes[selectedRecordingMode] }

    /// `select`: makes `index` the selected mode. An index outside the supported list is
    /// ConstraintError; a supported index that is not available is DynamicConstraintError.
    public mutating func select(_ index: Int) throws(MatterCommandError) {
        if let error = Self.selectionError(index, supportedCount: supportedRecordingModes.count, available: availableRecordingModes) {
            throw error
        }
        selectedRecordingMode = index
    }

    /// Selects the first available entry with `mode`; NotFound if there is none.
    public mutating func select(mode: RecordingModeType) throws(MatterCommandError) {
        guard let index = availableRecordingModes.first(where: { supportedRecordingModes[$0].recordingMode == mode }) else {
            throw MatterCommandError(.notFound, field: "recordingMode", "\(mode.rawValue) is not an available recording mode")
        }
        selectedRecordingMode = index
    }

    /// Every problem, with fields named as in the device file: supported list non-empty with no
    /// mode twice (ConstraintError / AlreadyExists); available indices in range (ConstraintError)
    /// and not repeated (AlreadyExists); selected index in range (ConstraintError) and available
    /// (DynamicConstraintError).
    public static func validationErrors(
        supported: [SupportedRecordingMode], available: [Int], selected: Int
    ) -> [MatterCommandError] {
        var errors: [MatterCommandError] = []
        if supported.isEmpty {
            errors.append(MatterCommandError(.constraintError, field: "supportedRecordingModes", "at least one mode is required"))
        }
        var seenModes = Set<RecordingModeType>()
        for (index, entry) in supported.enumerated() where !seenModes.insert(entry.recordingMode).inserted {
            errors.append(
                MatterCommandError(
                    .alreadyExists, field: "supportedRecordingModes[\(index)].recordingMode",
                    "\(entry.recordingMode.rawValue) is listed twice"))
        }
        var seenIndices = Set<Int>()
        for (position, index) in available.enumerated() {
            if !supported.indices.contains(index) {
                errors.append(
                    MatterCommandError(
                        .constraintError, field: "availableRecordingModes[\(position)]",
                        "index \(index) is outside supportedRecordingModes (\(supported.count) entries)"))
            } else if !seenIndices.insert(index).inserted {
                errors.append(
                    MatterCommandError(.alreadyExists, field: "availableRecordingModes[\(position)]", "index \(index) is listed twice"))
            }
        }
        if let error = selectionError(selected, supportedCount: supported.count, available: available) {
            errors.append(error)
        }
        return errors
    }

    private static func selectionError(_ index: Int, supportedCount: Int, available: [Int]) -> MatterCommandError? {
        if !(0..<supportedCount).contains(index) {
            return MatterCommandError(
                .constraintError, field: "selectedRecordingMode",
                "index \(index) is outside supportedRecordingModes (\(supportedCount) entries)")
        }
        if !available.contains(index) {
            return MatterCommandError(
                .dynamicConstraintError, field: "selectedRecordingMode", "index \(index) is not in availableRecordingModes")
        }
        return nil
    }
}
