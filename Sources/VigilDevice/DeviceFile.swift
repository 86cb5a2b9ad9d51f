import VigilCore

/// Reads and writes device files (JSON, see docs/device-file.md). Pure: bytes in, values out.
public enum DeviceFile {
    /// Decodes a device file from UTF-8 bytes (`[UInt8]`, `Data`, ...), collecting every problem.
    /// A JSON syntax error is a single problem with an empty path and "line L, column C: ...".
    /// The document must fit `limits` (``InputLimits/maxJSONBytes``, ``InputLimits/maxJSONDepth``,
    /// ``InputLimits/maxZones``).
    public static func decode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, limits: InputLimits = .default) -> DeviceFileReport {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, limits: limits)
        } catch {
            return DeviceFileReport(
                device: nil, problems: [DeviceFileProblem(path: "", reason: error.description)], warnings: [])
        }
        return decode(json: value, limits: limits)
    }

    /// Decodes a device file from text (see ``decode(_:)``).
    public static func decode(text: String) -> DeviceFileReport { decode(Array(text.utf8)) }

    /// Decodes an already parsed device file, collecting every problem.
    /// `maxZones` and the zone list must fit ``InputLimits/maxZones``.
    public static func decode(json: JSONValue, limits: InputLimits = .default) -> DeviceFileReport {
        var reader = DeviceFileReader(limits: limits)
        let device = reader.readDevice(json)
        return DeviceFileReport(
            device: reader.problems.isEmpty ? device : nil, problems: reader.problems, warnings: reader.warnings)
    }

    /// Decodes a device file, throwing every problem at once when it is invalid.
    public static func load<Bytes: Sequence<UInt8>>(_ bytes: Bytes, limits: InputLimits = .default) throws(DeviceFileError) -> Device {
        try decode(bytes, limits: limits).get()
    }

    /// The device-file text of `device` (pretty by default, with a final newline for files).
    public static func encode(_ device: Device, style: JSONValue.SerializationStyle = .pretty) -> String {
        let text = device.jsonValue.serialized(style)
        return style == .pretty ? text + "\n" : text
    }
}
