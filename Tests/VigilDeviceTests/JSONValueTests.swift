import Testing
import VigilCore

@Suite struct JSONValueParsingTests {
    @Test(arguments: [
        ("null", JSONValue.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .number(0)),
        ("-0", .number(-0.0)),
        ("12", .number(12)),
        ("-12.5e2", .number(-1250)),
        ("1E-2", .number(0.01)),
        ("1e+2", .number(100)),
        ("\"a\"", .string("a")),
        (" \t\r\n[ ] ", .array([])),
        ("{}", .object([:])),
        ("[1,[2,[3]]]", .array([1, [2, [3]]])),
        ("\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t\"", .string("\" \\ / \u{8} \u{C} \n \r \t")),
        ("\"\\u00e9\\u20AC\"", .string("é€")),
        ("\"\\ud83d\\ude00\"", .string("😀")),
        ("\"é😀\"", .string("é😀")),
        ("\u{FEFF}1", .number(1)),
    ])
    func parsesValidText(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test func objectsKeepKeyOrder() throws {
        let value = try JSONValue.parse(#"{"b":1,"a":2,"c":{"z":0,"y":1}}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["a"] == .number(2))
        #expect(value["c"]?.objectValue?.keys == ["z", "y"])
        #expect(value["missing"] == nil)
    }

    @Test(arguments: [
        ("", "line 1, column 1: unexpected end of input, expected a value"),
        ("[1,]", "line 1, column 4: expected a value, got ']'"),
        ("{\"a\":1,}", "line 1, column 8: expected a string key, got '}'"),
        ("01", "line 1, column 1: invalid number '01'"),
        ("-", "line 1, column 1: invalid number '-'"),
        ("1.", "line 1, column 1: invalid number '1.'"),
        (".5", "line 1, column 1: expected a value, got '.'"),
        ("1e", "line 1, column 1: invalid number '1e'"),
        ("1e999", "line 1, column 1: number out of range '1e999'"),
        ("NaN", "line 1, column 1: expected a value, got 'N'"),
        ("tru", "line 1, column 4: unexpected end of input, expected 'true'"),
        ("nul!", "line 1, column 4: expected 'null', got '!'"),
        ("[1 2]", "line 1, column 4: expected ',' or ']', got '2'"),
        ("{\"a\" 1}", "line 1, column 6: expected ':', got '1'"),
        ("{'a':1}", "line 1, column 2: expected a string key, got '''"),
        ("\"abc", "line 1, column 5: unexpected end of input, expected '\"'"),
        ("\"a\u{1}\"", "line 1, column 3: unescaped control character U+0001 in string"),
        ("\"a\tb\"", "line 1, column 3: unescaped control character U+0009 in string"),
        ("\"\\x\"", "line 1, column 2: invalid escape sequence in string"),
        ("\"\\u12G4\"", "line 1, column 6: invalid \\u escape, expected 4 hex digits"),
        ("\"\\ud800\"", "line 1, column 2: unpaired UTF-16 surrogate in \\u escape"),
        ("\"\\udc00\"", "line 1, column 2: unpaired UTF-16 surrogate in \\u escape"),
        ("\"\\ud800\\u0041\"", "line 1, column 2: unpaired UTF-16 surrogate in \\u escape"),
        ("{\"a\":1,\"a\":2}", "line 1, column 8: duplicate key \"a\""),
        ("1 2", "line 1, column 3: unexpected content after the JSON value"),
        ("{\n  \"é\": [1,\n    x]\n}", "line 3, column 5: expected a value, got 'x'"),
        ("/* c */ 1", "line 1, column 1: expected a value, got '/'"),
    ])
    func rejectsInvalidText(text: String, message: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func reportsByteOffsetLineAndColumn() {
        do {
            _ = try JSONValue.parse("[\n\"é\", ?]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 8)
            #expect(error.line == 2)
            #expect(error.column == 6)
            #expect(error.kind == .unexpectedByte(UInt8(ascii: "?"), expected: "a value"))
        }
    }

    @Test(arguments: [
        [0xFF] as [UInt8], [0x22, 0xC3, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
    ])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
    }

    @Test func enforcesDepthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(try JSONValue.parse(ok).arrayValue != nil)
        do {
            _ = try JSONValue.parse(tooDeep)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .nestingTooDeep(limit: 64))
            #expect(error.column == 65)
        }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#"{"a":{"b":1}}"#, maxDepth: 1) }
        #expect(try JSONValue.parse(#"{"a":[1]}"#, maxDepth: 2) == ["a": [1]])
    }
}

@Suite struct JSONValueSerializationTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-42.0, "-42"), (2048.0, "2048"), (0.1, "0.1"), (-2.5, "-2.5"),
        (1e-5, "1e-05"), (1e20, "1e+20"), (9007199254740991.0, "9007199254740991"), (1.0 / 3.0, "0.3333333333333333"),
        (Double.nan, "null"), (Double.infinity, "null"), (-Double.infinity, "null"),
    ])
    func writesNumbersDeterministically(value: Double, text: String) throws {
        #expect(JSONValue.number(value).serialized() == text)
        if value.isFinite {
            #expect(try JSONValue.parse(text) == .number(value))
        }
    }

    @Test func escapesStrings() {
        let value = JSONValue.string("q\" b\\ /\n\r\t\u{8}\u{C}\u{1}\u{1F}\u{7F} é😀")
        #expect(value.serialized() == "\"q\\\" b\\\\ /\\n\\r\\t\\b\\f\\u0001\\u001f\u{7F} é😀\"")
    }

    @Test func compactIsOneLine() {
        let value: JSONValue = ["name": "a\nb", "list": [1, 2.5, nil, true], "empty": [:], "none": []]
        let text = value.serialized()
        #expect(text == #"{"name":"a\nb","list":[1,2.5,null,true],"empty":{},"none":[]}"#)
        #expect(!text.contains("\n"))
        #expect(value.description == text)
    }

    @Test func prettyUsesTwoSpaces() {
        let value: JSONValue = ["a": [1, ["b": false]], "e": [], "o": [:]]
        #expect(
            value.serialized(.pretty) == """
                {
                  "a": [
                    1,
                    {
                      "b": false
                    }
                  ],
                  "e": [],
                  "o": {}
                }
                """)
    }

    @Test func roundTripsThroughText() throws {
        let text = #"{"z":[1,-2.25,"x\u0000y",{"k":null}],"a":true,"u":"€😀"}"#
        let value = try JSONValue.parse(text)
        #expect(try JSONValue.parse(value.serialized()) == value)
        #expect(try JSONValue.parse(value.serialized(.pretty)) == value)
        #expect(value.serialized() == #"{"z":[1,-2.25,"x\u0000y",{"k":null}],"a":true,"u":"€😀"}"#)
    }

    @Test func objectSubscriptSetsInPlaceAppendsAndRemoves() {
        var object: JSONObject = ["a": 1, "b": 2]
        object["a"] = 3
        object["c"] = 4
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(JSONValue.object(object).serialized() == #"{"a":3,"c":4}"#)
    }

    @Test func accessorsCheckTheKind() {
        #expect(JSONValue.number(3).intValue == 3)
        #expect(JSONValue.number(3.5).intValue == nil)
        #expect(JSONValue.number(1e300).intValue == nil)
        #expect(JSONValue.string("3").intValue == nil)
        #expect(JSONValue.bool(true).boolValue == true)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.string("x").kindDescription == "a string")
    }
}
