/// Writes PNG files by hand (stored, uncompressed deflate blocks) so tests can build inputs
/// libpng's simplified writer cannot produce: 16-bit samples, gray+alpha, no gamma chunk.
enum RawPNGWriter {
    /// A PNG of `width` x `height` with colour type `colorType` (0 gray, 2 RGB, 4 gray+alpha,
    /// 6 RGBA) and `bitDepth` (8 or 16); `samples` are the raw big-endian row bytes without
    /// filter bytes.
    static func png(width: Int, height: Int, colorType: UInt8, bitDepth: UInt8, samples: [UInt8]) -> [UInt8] {
        let rowBytes = samples.count / height
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(0)
            raw += samples[(row * rowBytes)..<((row + 1) * rowBytes)]
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header += be32(UInt32(width))
        header += be32(UInt32(height))
        header += [bitDepth, colorType, 0, 0, 0]
        out += chunk("IHDR", header)
        out += chunk("IDAT", zlibStored(raw))
        out += chunk("IEND", [])
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(UInt32(data.count)) + typeBytes + data + be32(crc32(typeBytes + data))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65_535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out.append(final)
            out += [UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8((~n >> 8) & 255)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(b << 16 | a)
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
