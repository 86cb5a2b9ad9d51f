#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of bytes: a file descriptor (file or stdin) or memory.
public protocol ByteReader {
    /// Reads up to `buffer.count` bytes; returns 0 at the end of the stream.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FrameSourceError) -> Int
}

/// Bytes from a POSIX file descriptor. Opened files are closed when the reader is released.
public final class FileDescriptorReader: ByteReader {
    /// The descriptor.
    public let descriptor: Int32
    /// Name for messages.
    public let name: String
    private let owned: Bool

    /// Opens `path` for reading; "-" means standard input.
    public init(path: String) throws(FrameSourceError) {
        if path == "-" {
            descriptor = STDIN_FILENO
            name = "stdin"
            owned = false
            return
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw FrameSourceError(.unreadable, source: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        name = path
        owned = true
    }

    /// Reads from an open `descriptor` (a pipe from a decoder process, for example), named
    /// `name` in messages; the descriptor is closed on release when `closesOnRelease`.
    public init(descriptor: Int32, name: String, closesOnRelease: Bool) {
        self.descriptor = descriptor
        self.name = name
        owned = closesOnRelease
    }

    deinit {
        if owned { close(descriptor) }
    }

    /// Reads with `read(2)`, retrying on EINTR.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(FrameSourceError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, base, buffer.count)
            #else
            let n = Darwin.read(descriptor, base, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw FrameSourceError(.unreadable, source: name, reason: "read failed: \(String(cString: strerror(errno)))")
        }
    }
}

/// Bytes from memory (tests, in-memory streams).
public struct MemoryByteReader: ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// Reads from `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Copies the next bytes.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(FrameSourceError) -> Int {
        let n = min(buffer.count, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
