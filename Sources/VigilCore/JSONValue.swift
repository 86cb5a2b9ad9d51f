/// A JSON value (RFC 8259) whose objects keep their key order.
///
/// Parse with ``JSONValue/parse(_:maxDepth:)`` (bytes, any `UInt8` sequence such as
/// `[UInt8]` or `Data`) or ``JSONValue/parse(_:maxDepth:)-(String,_)``, and write with
/// ``JSONValue/serialized(_:)``.
///
/// Numbers are stored as `Double`. Serialization is deterministic:
/// integral values with magnitude below 2^53 are written without a fraction (`3`, not `3.0`),
/// other finite values in Swift's shortest round-trip form (`0.1`, `1e-05`, `1e+20`).
/// JSON has no NaN or infinity: **non-finite numbers are written as `null`**.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its members in order.
    case object(JSONObject)
}

/// A JSON object: members in their original (or insertion) order, looked up by key.
///
/// Equality is order-sensitive: `{"a":1,"b":2}` and `{"b":2,"a":1}` are different values,
/// because the serialized text differs.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One `key: value` member of an object.
    public struct Member: Sendable, Hashable {
        /// The member name.
        public var key: String
        /// The member value.
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members in order.
    public private(set) var members: [Member]

    /// Creates an empty object.
    public init() { members = [] }

    /// Creates an object from members in order. A repeated key keeps its first position and last value.
    public init(_ members: [(String, JSONValue)]) {
        self.members = []
        for (key, value) in members { self[key] = value }
    }

    /// Creates an object from a literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The first index.
    public var startIndex: Int { members.startIndex }
    /// One past the last index.
    public var endIndex: Int { members.endIndex }
    /// The member at `position`.
    public subscript(position: Int) -> Member { members[position] }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// The value for `key`, or `nil`. Setting a value replaces it in place (keeping the
    /// position) or appends it; setting `nil` removes the member.
    public subscript(key: String) -> JSONValue? {
        get { members.first(where: { $0.key == key })?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// Appends a member without checking for an existing key (the parser rejects duplicates first).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }
}

// MARK: - Literals and accessors

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object in literal order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }

    /// The boolean, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The number, if this is one.
    public var doubleValue: Double? { if case .number(let d) = self { return d } else { return nil } }
    /// The number as an `Int`, if this is a number with no fractional part that fits in `Int`.
    public var intValue: Int? {
        guard case .number(let d) = self, d.rounded(.towardZero) == d, let i = Int(exactly: d) else { return nil }
        return i
    }
    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    /// The object, if this is one.
    public var objectValue: JSONObject? { if case .object(let o) = self { return o } else { return nil } }
    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// The member `key` if this is an object that has it.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// A short name of the value's kind for messages: "null", "a boolean", "a number", ...
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

// MARK: - Parsing

/// Why JSON text could not be parsed, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The input ended while `expected` was still needed.
        case unexpectedEndOfInput(expected: String)
        /// A byte that cannot start or continue what was `expected`.
        case unexpectedByte(UInt8, expected: String)
        /// A number that breaks the RFC 8259 grammar (leading zero, missing digits, ...).
        case invalidNumber(String)
        /// A number too large for a `Double`.
        case numberOutOfRange(String)
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        case invalidEscape
        /// A `\u` escape without four hex digits.
        case invalidUnicodeEscape
        /// A `\uD800`...`\uDFFF` escape that is not part of a valid surrogate pair.
        case loneSurrogate
        /// An unescaped control character (U+0000...U+001F) inside a string.
        case controlCharacterInString(UInt8)
        /// Bytes that are not valid UTF-8.
        case invalidUTF8
        /// An object with the same key twice.
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the limit.
        case nestingTooDeep(limit: Int)
        /// Something other than whitespace after the top-level value.
        case trailingContent
        /// A document of `size` bytes, more than the `limit` (nothing was parsed).
        case documentTooLarge(size: Int, limit: Int)
    }

    /// What went wrong.
    public var kind: Kind
    /// Byte offset from the start of the input (0-based).
    public var offset: Int
    /// Line number (1-based; lines end at LF).
    public var line: Int
    /// Column number (1-based, counted in Unicode scalars from the start of the line).
    public var column: Int

    /// Creates an error.
    public init(kind: Kind, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The problem alone, without position: "expected ',' or '}', got 'x'".
    public var reason: String {
        switch kind {
        case .unexpectedEndOfInput(let expected): return "unexpected end of input, expected \(expected)"
        case .unexpectedByte(let byte, let expected):
            return "expected \(expected), got \(Self.describe(byte))"
        case .invalidNumber(let text): return "invalid number '\(text)'"
        case .numberOutOfRange(let text): return "number out of range '\(text)'"
        case .invalidEscape: return "invalid escape sequence in string"
        case .invalidUnicodeEscape: return "invalid \\u escape, expected 4 hex digits"
        case .loneSurrogate: return "unpaired UTF-16 surrogate in \\u escape"
        case .controlCharacterInString(let byte):
            return "unescaped control character \(Self.hex(byte)) in string"
        case .invalidUTF8: return "invalid UTF-8"
        case .duplicateKey(let key): return "duplicate key \"\(key)\""
        case .nestingTooDeep(let limit): return "nesting deeper than \(limit) levels \(InputLimits.Limit.jsonDepth.raiseHint)"
        case .trailingContent: return "unexpected content after the JSON value"
        case .documentTooLarge(let size, let limit):
            return "document is \(size) bytes, more than the \(InputLimits.byteText(limit)) limit \(InputLimits.Limit.jsonBytes.raiseHint)"
        }
    }

    /// "line 3, column 7: expected ',' or '}', got 'x'".
    public var description: String { "line \(line), column \(column): \(reason)" }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "U+00" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return hex(byte)
    }
}

extension JSONValue {
    /// The default limit on nested arrays and objects (``InputLimits/maxJSONDepth``).
    public static let defaultMaxDepth = InputLimits.default.maxJSONDepth

    /// Parses `bytes` within `limits` (``InputLimits/maxJSONBytes`` and ``InputLimits/maxJSONDepth``).
    public static func parse<Bytes: Sequence<UInt8>>(_ bytes: Bytes, limits: InputLimits) throws(JSONParseError) -> JSONValue {
        try parse(bytes, maxDepth: limits.maxJSONDepth, maxBytes: limits.maxJSONBytes)
    }

    /// Parses strict RFC 8259 JSON text from UTF-8 bytes (`[UInt8]`, `Data`, ...).
    ///
    /// Strict means: one value of any type at the top level surrounded only by JSON whitespace
    /// (space, tab, LF, CR); no comments, trailing commas, single quotes, leading zeros,
    /// `NaN`/`Infinity`, unescaped control characters, invalid UTF-8 or lone surrogates.
    /// A leading UTF-8 byte order mark is skipped. Duplicate keys in one object are rejected.
    /// At most `maxDepth` arrays/objects may be nested.
    /// More than `maxBytes` bytes is refused before parsing (``JSONParseError/Kind-swift.enum/documentTooLarge(size:limit:)``).
    public static func parse<Bytes: Sequence<UInt8>>(
        _ bytes: Bytes, maxDepth: Int = defaultMaxDepth, maxBytes: Int = Int.max
    ) throws(JSONParseError) -> JSONValue {
        let array = Array(bytes)
        if array.count > maxBytes {
            throw JSONParseError(kind: .documentTooLarge(size: array.count, limit: maxBytes), offset: 0, line: 1, column: 1)
        }
        var parser = JSONParser(bytes: array, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses strict RFC 8259 JSON text (see ``parse(_:maxDepth:)``).
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

/// A recursive-descent parser over a byte array.
struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var position = 0
    var depth = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if position < bytes.count { throw error(.trailingContent) }
        return value
    }

    func error(_ kind: JSONParseError.Kind, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, bytes.count)
        var line = 1
        var column = 1
        var index = 0
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return JSONParseError(kind: kind, offset: offset, line: line, column: column)
    }

    func unexpected(_ expected: String) -> JSONParseError {
        if position >= bytes.count { return error(.unexpectedEndOfInput(expected: expected)) }
        return error(.unexpectedByte(bytes[position], expected: expected))
    }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw unexpected("a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpected("a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        var index = 0
        let utf8 = literal.utf8Start
        while index < literal.utf8CodeUnitCount {
            guard position < bytes.count, bytes[position] == utf8[index] else {
                throw unexpected("'\(literal)'")
            }
            position += 1
            index += 1
        }
    }

    mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw error(.nestingTooDeep(limit: maxDepth)) }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1  // {
        var object = JSONObject()
        var seen = Set<String>()
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw unexpected("a string key")
            }
            let keyStart = position
            let key = try parseString()
            if !seen.insert(key).inserted { throw error(.duplicateKey(key), at: keyStart) }
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw unexpected("':'") }
            position += 1
            skipWhitespace()
            let value = try parseValue()
            object.appendUnchecked(key, value)
            skipWhitespace()
            guard position < bytes.count else { throw unexpected("',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(object)
            } else {
                throw unexpected("',' or '}'")
            }
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard position < bytes.count else { throw unexpected("',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(elements)
            } else {
                throw unexpected("',' or ']'")
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        func isDigit(_ index: Int) -> Bool {
            index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
        }
        func invalid(_ end: Int) -> JSONParseError {
            var stop = end
            while stop < bytes.count, stop - start < 40,
                !([0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D] as [UInt8]).contains(bytes[stop])
            {
                stop += 1
            }
            return error(.invalidNumber(String(decoding: bytes[start..<stop], as: UTF8.self)), at: start)
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard isDigit(position) else { throw invalid(position) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(position) { throw invalid(position) }
        } else {
            while isDigit(position) { position += 1 }
        }
        if position < bytes.count && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard isDigit(position) else { throw invalid(position) }
            while isDigit(position) { position += 1 }
        }
        if position < bytes.count && (bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")) {
            position += 1
            if position < bytes.count && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard isDigit(position) else { throw invalid(position) }
            while isDigit(position) { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text) else { throw error(.invalidNumber(text), at: start) }
        guard value.isFinite else { throw error(.numberOutOfRange(text), at: start) }
        return value
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw error(.invalidUnicodeEscape) }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error(.invalidUnicodeEscape)
            }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    /// Length of the valid UTF-8 sequence starting at `index`, or nil.
    func utf8SequenceLength(at index: Int) -> Int? {
        let lead = bytes[index]
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < bytes.count && range.contains(bytes[index + offset])
        }
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : nil
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : nil
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : nil
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : nil
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : nil
        default: return nil
        }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        var buffer: [UInt8] = []
        while true {
            guard position < bytes.count else { throw unexpected("'\"'") }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let escapeStart = position
                position += 1
                guard position < bytes.count else { throw unexpected("an escape character") }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    let unit = try parseHex4()
                    var scalarValue = UInt32(unit)
                    if (0xD800...0xDBFF).contains(unit) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error(.loneSurrogate, at: escapeStart) }
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error(.loneSurrogate, at: escapeStart) }
                        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(unit) {
                        throw error(.loneSurrogate, at: escapeStart)
                    }
                    guard let scalar = Unicode.Scalar(scalarValue) else { throw error(.loneSurrogate, at: escapeStart) }
                    buffer.append(contentsOf: String(Character(scalar)).utf8)
                default:
                    throw error(.invalidEscape, at: escapeStart)
                }
            case 0x00..<0x20:
                throw error(.controlCharacterInString(byte))
            case 0x20..<0x80:
                buffer.append(byte)
                position += 1
            default:
                guard let length = utf8SequenceLength(at: position) else { throw error(.invalidUTF8) }
                buffer.append(contentsOf: bytes[position..<position + length])
                position += length
            }
        }
    }
}

// MARK: - Serialization

extension JSONValue {
    /// How ``JSONValue/serialized(_:)`` lays out text.
    public enum SerializationStyle: Sendable, Hashable {
        /// One line, no spaces: `{"a":[1,2]}`. Suitable for JSON Lines.
        case compact
        /// Two-space indentation, one member or element per line, `"key": value`;
        /// empty arrays and objects stay `[]` and `{}`. No trailing newline.
        case pretty
    }

    /// The JSON text of this value. Object members keep their order; strings escape `"`, `\`
    /// and control characters (`\b \f \n \r \t`, others as `\u00XX`) and pass all other
    /// characters through as UTF-8; numbers follow the rules in ``JSONValue``; NaN and
    /// infinities are written as `null`.
    public func serialized(_ style: SerializationStyle = .compact) -> String {
        String(decoding: serializedBytes(style), as: UTF8.self)
    }

    /// The JSON text of this value as UTF-8 bytes (see ``serialized(_:)``).
    public func serializedBytes(_ style: SerializationStyle = .compact) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output, style: style, indent: 0)
        return output
    }

    /// The text of a number as ``serialized(_:)`` writes it ("null" if not finite).
    public static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value.rounded(.towardZero) == value, abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }

    private func write(to output: inout [UInt8], style: SerializationStyle, indent: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): output.append(contentsOf: Self.numberText(value).utf8)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(&output, style: style, indent: indent + 1)
                element.write(to: &output, style: style, indent: indent + 1)
            }
            Self.newline(&output, style: style, indent: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(&output, style: style, indent: indent + 1)
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if style == .pretty { output.append(UInt8(ascii: " ")) }
                member.value.write(to: &output, style: style, indent: indent + 1)
            }
            Self.newline(&output, style: style, indent: indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], style: SerializationStyle, indent: Int) {
        guard style == .pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func writeString(_ string: String, to output: inout [UInt8]) {
        let hexDigits = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): output.append(contentsOf: [0x5C, 0x5C])
            case 0x08: output.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: output.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: output.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x00..<0x20:
                output.append(contentsOf: Array("\\u00".utf8))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serialized(.compact) }
}
