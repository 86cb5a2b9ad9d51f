import Testing

@Test func placeholder_VigilDeviceTests() { #expect(Bool(true)) }
