import Testing

@Test func placeholder_VigilDSPTests() { #expect(Bool(true)) }
