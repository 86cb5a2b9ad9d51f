/// `--shard i/n`: a deterministic share of the inputs, so the same command can run as a
/// Kubernetes Indexed Job or a Slurm array. Shard `i` (0-based) of `n` takes the recordings
/// whose name hashes (FNV-1a 64 of the reported name) to `i` modulo `n`: the assignment does not
/// depend on the order or number of other inputs, so adding recordings does not move others.
public struct InputShard: Sendable, Hashable {
    /// This shard's index, 0..<count.
    public var index: Int
    /// Number of shards.
    public var count: Int

    /// Parses `i/n`; nil unless 0 <= i < n.
    public init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 0, i < n else { return nil }
        index = i
        count = n
    }

    /// How `--shard` shows its value in help.
    public static var defaultValueDescription: String { "i/n, 0 <= i < n" }

    /// Whether `name` belongs to this shard.
    public func contains(_ name: String) -> Bool {
        Int(Self.fnv1a(name) % UInt64(count)) == index
    }

    /// FNV-1a 64-bit hash of the UTF-8 bytes.
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
