import Testing
import VigilCore

@Suite("JSONValue")
struct JSONValueTests {
    @Test("compact and pretty text parse back to the same value; members keep their order")
    func roundTrip() throws {
        let text = #"{"b":[1,2.5,-3e-7,true,null],"a":{"s":"q\"uote\\ \u00e9 \n","empty":[],"o":{}}}"#
        let value = try JSONValue.parse(text)
        #expect(value.objectValue?.keys == ["b", "a"])
        #expect(try JSONValue.parse(value.serialized(.compact)) == value)
        #expect(try JSONValue.parse(value.serialized(.pretty)) == value)
        #expect(value["a"]?["s"]?.stringValue == "q\"uote\\ é \n")
        #expect(value["b"]?.arrayValue?[2].doubleValue == -3e-7)
        #expect(JSONValue.object(JSONObject([("a", .array([.number(1), .number(2)]))])).serialized(.compact) == #"{"a":[1,2]}"#)
    }

    @Test("malformed text is refused with the kind of problem, its line and column")
    func errors() {
        func failure(_ text: String, maxDepth: Int = 64) -> JSONParseError? {
            do {
                _ = try JSONValue.parse(text, maxDepth: maxDepth)
                return nil
            } catch { return error }
        }
        let unterminated = failure("{\n  \"a\": [1, 2\n")
        #expect(unterminated?.line == 3, "\(String(describing: unterminated))")
        if case .unexpectedEndOfInput = unterminated?.kind {
        } else {
            Issue.record("expected end of input, got \(String(describing: unterminated))")
        }
        #expect(failure(#"{"a":1,"a":2}"#)?.kind == .duplicateKey("a"))
        #expect(failure("[1] x")?.kind == .trailingContent)
        #expect(failure(#"["\ud800"]"#)?.kind == .loneSurrogate)
        #expect(
            failure(String(repeating: "[", count: 5) + String(repeating: "]", count: 5), maxDepth: 4)?.kind == .nestingTooDeep(limit: 4))
        #expect(failure(String(repeating: "[", count: 4) + String(repeating: "]", count: 4), maxDepth: 4) == nil)
        let bad = failure("[01]")
        #expect(bad != nil && bad!.column >= 2, "\(String(describing: bad))")
    }

    @Test("integers are read exactly; fractions are not integers")
    func numbers() throws {
        let value = try JSONValue.parse("[9007199254740992, 3, 3.5, -0]")
        #expect(value.arrayValue?[0].intValue == 9_007_199_254_740_992)
        #expect(value.arrayValue?[1].intValue == 3)
        #expect(value.arrayValue?[2].intValue == nil)
        #expect(value.arrayValue?[3].intValue == 0)
    }
}
