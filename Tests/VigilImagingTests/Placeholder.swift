import Testing

@Test func placeholder_VigilImaging() { #expect(Bool(true)) }
