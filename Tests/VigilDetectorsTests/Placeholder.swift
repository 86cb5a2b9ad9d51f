import Testing

@Test func placeholder_VigilDetectorsTests() { #expect(Bool(true)) }
