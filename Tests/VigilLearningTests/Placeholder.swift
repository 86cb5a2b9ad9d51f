import Testing

@Test func placeholder_learning() { #expect(Bool(true)) }
