import Testing

@Test func placeholder_VigilVision() { #expect(Bool(true)) }
