import Testing
import VigilLive

@Suite("LiveMetrics exposition")
struct LiveMetricsTests {
    /// `name{labels}` -> value of every sample line; every sample's family has a `# TYPE` line before it.
    func samples(_ text: String) -> (values: [String: Double], types: [String: String]) {
        var values: [String: Double] = [:], types: [String: String] = [:]
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                types[String(parts[2])] = String(parts[3])
            } else if !line.hasPrefix("#"), let space = line.lastIndex(of: " ") {
                let key = String(line[..<space])
                let family = String(key.prefix { $0 != "{" })
                #expect(types[family] != nil, "\(family) has no TYPE line before its sample")
                values[key] = Double(line[line.index(after: space)...])
            }
        }
        return (values, types)
    }

    @Test("counters and gauges keep their names, labels and values; families without labels start at 0")
    func exposition() {
        let metrics = LiveMetrics()
        let empty = samples(metrics.prometheusText())
        #expect(empty.values["vigil_live_dropped_clients_total"] == 0 && empty.values["vigil_live_blocks_total"] == 0)
        #expect(empty.values[#"vigil_live_clients{transport="sse"}"#] == 0 && empty.types["vigil_live_media_lag_seconds"] == "gauge")
        metrics.clientConnected("sse")
        metrics.clientConnected("sse")
        metrics.clientConnected("websocket")
        metrics.clientDisconnected("sse")
        metrics.clientDropped()
        metrics.blockProcessed(mediaTime: 1.5, lag: 0.25)
        metrics.blockProcessed(mediaTime: 1.6, lag: 0.125)
        metrics.controlRequest(status: 422)
        metrics.controlRequest(status: 422)
        metrics.controlRequest(status: 200)
        let (values, types) = samples(metrics.prometheusText())
        #expect(values[#"vigil_live_clients{transport="sse"}"#] == 1 && values[#"vigil_live_clients{transport="websocket"}"#] == 1)
        #expect(values[#"vigil_live_clients_total{transport="sse"}"#] == 2 && types["vigil_live_clients_total"] == "counter")
        #expect(values["vigil_live_dropped_clients_total"] == 1 && values["vigil_live_blocks_total"] == 2)
        #expect(values["vigil_live_media_time_seconds"] == 1.6 && values["vigil_live_media_lag_seconds"] == 0.125)
        #expect(values["vigil_live_media_lag_max_seconds"] == 0.25)
        #expect(
            values[#"vigil_live_control_requests_total{code="422"}"#] == 2 && values[#"vigil_live_control_requests_total{code="200"}"#] == 1
        )
        #expect(metrics.connectedClients == 2 && metrics.droppedClients == 1 && metrics.currentLag == 0.125)
    }
}
