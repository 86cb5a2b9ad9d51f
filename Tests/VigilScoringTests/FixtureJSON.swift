import Foundation

/// A JSON value decoded with `JSONDecoder`, which reads numbers exactly (corelibs `JSONSerialization`
/// rounds some long decimals, which would move events across collar boundaries).
enum FixtureJSON: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([FixtureJSON])
    case object([String: FixtureJSON])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([FixtureJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: FixtureJSON].self))
        }
    }

    static func load(_ url: URL) throws -> FixtureJSON {
        try JSONDecoder().decode(FixtureJSON.self, from: Data(contentsOf: url))
    }

    subscript(key: String) -> FixtureJSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    var object: [String: FixtureJSON]? {
        if case .object(let o) = self { return o }
        return nil
    }

    var array: [FixtureJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// A number, or the strings `NaN`, `Infinity`, `-Infinity` written by the fixture script.
    var double: Double? {
        switch self {
        case .number(let d): return d
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        default: return nil
        }
    }
}
