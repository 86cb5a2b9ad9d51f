import Foundation

/// The live server could not listen on its address: the address and the reason in words.
public struct LiveServerListenError: Error, Sendable, CustomStringConvertible {
    /// The host listened on.
    public var host: String
    /// The port listened on.
    public var port: Int
    /// The system error number (`EADDRINUSE`, `EACCES`, ...).
    public var errno: Int32
    /// The network library's own description.
    public var underlying: String

    /// Creates an error.
    public init(host: String, port: Int, errno: Int32, underlying: String) {
        self.host = host
        self.port = port
        self.errno = errno
        self.underlying = underlying
    }

    /// `cannot listen on HOST:PORT: the reason`, with what to do about it.
    public var description: String {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        switch errno {
        case EADDRINUSE:
            return "cannot listen on \(address): the port is in use (choose another with --listen HOST:PORT, or port 0 for any free port)"
        case EACCES:
            return
                "cannot listen on \(address): no permission for that port (ports below 1024 need privileges; choose another with --listen)"
        case EADDRNOTAVAIL: return "cannot listen on \(address): the address is not one of this machine's (choose another with --listen)"
        default: return "cannot listen on \(address): \(String(cString: strerror(errno))) (\(underlying))"
        }
    }
}
