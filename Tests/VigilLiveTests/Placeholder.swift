import Testing

@Test func placeholder_live() { #expect(Bool(true)) }
