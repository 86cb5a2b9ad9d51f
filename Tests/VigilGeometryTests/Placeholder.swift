import Testing

@Test func placeholder_VigilGeometryTests() { #expect(Bool(true)) }
