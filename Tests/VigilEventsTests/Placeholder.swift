import Testing

@Test func placeholder_VigilEventsTests() { #expect(Bool(true)) }
