import Testing

@Test func placeholder_VigilFrameIO() { #expect(Bool(true)) }
