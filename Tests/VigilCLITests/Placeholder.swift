import Testing

@Test func placeholder_VigilCLITests() { #expect(Bool(true)) }
