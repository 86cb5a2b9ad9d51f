import Testing

@Test func placeholder_scoring() { #expect(Bool(true)) }
