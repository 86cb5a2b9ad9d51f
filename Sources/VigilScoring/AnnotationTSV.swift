import VigilCore

/// Reader and writer for tab-separated annotation files.
///
/// Accepted line forms:
/// - `filename<TAB>onset<TAB>offset<TAB>label`
/// - `onset<TAB>offset<TAB>label` (DCASE form; the event's `file` is `defaultFile`)
///
/// Blank lines are skipped. The first non-blank line is skipped as a header when its onset and offset
/// columns are not numbers (e.g. `filename onset offset event_label`). Lines without a tab are split on
/// runs of spaces, as some DCASE files are space-separated. Fields are trimmed of surrounding whitespace.
package enum AnnotationTSV {
    /// Parses annotation text into events, in file order.
    ///
    /// - Parameters:
    ///   - text: the file contents.
    ///   - defaultFile: the `file` of events given in the 3-column form.
    /// - Throws: ``AnnotationParseError`` naming the 1-based line and the reason.
    package static func parse(_ text: String, defaultFile: String = "") throws(AnnotationParseError) -> [ScoredEvent] {
        var events: [ScoredEvent] = []
        var sawContent = false
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so split on each line terminator explicitly.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
        for rawLine in lines {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.last == "\r" { line = line.dropLast() }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let isFirstContent = !sawContent
            sawContent = true

            var fields: [String]
            if line.contains("\t") {
                fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { trim($0) }
                while let last = fields.last, last.isEmpty, fields.count > 4 { fields.removeLast() }
            } else {
                fields = line.split(separator: " ", omittingEmptySubsequences: true).map { trim($0) }
            }
            let text = String(line)
            guard fields.count == 3 || fields.count == 4 else {
                if isFirstContent && !fields.contains(where: { Double($0) != nil }) { continue }
                throw AnnotationParseError(line: lineNumber, reason: .wrongColumnCount(fields.count), text: text)
            }
            let base = fields.count == 4 ? 1 : 0
            let onsetField = fields[base], offsetField = fields[base + 1], label = fields[base + 2]
            let onset = Double(onsetField), offset = Double(offsetField)
            if isFirstContent && onset == nil && offset == nil { continue }  // header line
            guard let onset, onset.isFinite else {
                throw AnnotationParseError(line: lineNumber, reason: .invalidOnset(onsetField), text: text)
            }
            guard let offset, offset.isFinite else {
                throw AnnotationParseError(line: lineNumber, reason: .invalidOffset(offsetField), text: text)
            }
            guard offset >= onset else {
                throw AnnotationParseError(
                    line: lineNumber, reason: .offsetBeforeOnset(onset: onset, offset: offset), text: text)
            }
            guard !label.isEmpty else {
                throw AnnotationParseError(line: lineNumber, reason: .emptyLabel, text: text)
            }
            let file = fields.count == 4 ? fields[0] : defaultFile
            events.append(ScoredEvent(file: file, onset: onset, offset: offset, label: label))
        }
        return events
    }

    /// Formats events as annotation text, one line per event, each line ending in `\n`.
    ///
    /// - Parameters:
    ///   - events: events to write, in the given order.
    ///   - includeFile: write the 4-column form with the file name first; otherwise the 3-column DCASE form.
    ///   - places: decimals of the times; the default, 3 (milliseconds), is finer than any detector's time step
    ///     (an STFT hop is about 12 ms) and matches `events.tsv`.
    /// - Returns: the text.
    package static func format(_ events: [ScoredEvent], includeFile: Bool = true, places: Int = 3) -> String {
        var out = ""
        for e in events {
            if includeFile { out += e.file + "\t" }
            out += "\(DecimalText.fixed(e.onset, places: places))\t\(DecimalText.fixed(e.offset, places: places))\t\(e.label)\n"
        }
        return out
    }

    private static func trim(_ s: Substring) -> String {
        var t = s
        while let f = t.first, f == " " || f == "\t" { t = t.dropFirst() }
        while let l = t.last, l == " " || l == "\t" { t = t.dropLast() }
        return String(t)
    }
}
