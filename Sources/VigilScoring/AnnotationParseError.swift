/// A line of an annotation file that could not be read.
package struct AnnotationParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a line was rejected.
    package enum Reason: Sendable, Hashable {
        /// The line has a column count other than 3 (`onset offset label`) or 4 (`file onset offset label`).
        case wrongColumnCount(Int)
        /// The onset field is not a finite number.
        case invalidOnset(String)
        /// The offset field is not a finite number.
        case invalidOffset(String)
        /// The offset lies before the onset.
        case offsetBeforeOnset(onset: Double, offset: Double)
        /// The label field is empty.
        case emptyLabel
    }

    /// 1-based line number in the input text.
    package var line: Int
    /// What was wrong.
    package var reason: Reason
    /// The offending line, without its line terminator.
    package var text: String

    /// Creates an error.
    package init(line: Int, reason: Reason, text: String) {
        self.line = line
        self.reason = reason
        self.text = text
    }

    /// A human-readable message naming the line and the reason.
    package var description: String {
        let why: String
        switch reason {
        case .wrongColumnCount(let n):
            why = "expected 3 columns (onset, offset, label) or 4 (file, onset, offset, label), found \(n)"
        case .invalidOnset(let s): why = "onset \"\(s)\" is not a finite number"
        case .invalidOffset(let s): why = "offset \"\(s)\" is not a finite number"
        case .offsetBeforeOnset(let on, let off): why = "offset \(off) is before onset \(on)"
        case .emptyLabel: why = "empty label"
        }
        return "annotation line \(line): \(why): \"\(text)\""
    }
}
