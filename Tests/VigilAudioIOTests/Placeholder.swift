import Testing

@Test func placeholder_VigilAudioIOTests() { #expect(Bool(true)) }
