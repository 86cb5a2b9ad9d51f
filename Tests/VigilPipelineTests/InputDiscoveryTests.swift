import Foundation
import Testing

@testable import VigilPipeline

/// How command-line inputs become recordings: directories, links, and paths that do not exist.
@Suite struct InputDiscoveryTests {
    /// `root/real` holding `a.wav`, `notes.txt`, `sub/b.flac`, `linked.flac` (a link to `root/outside.flac`) and
    /// `loop` (a link back to `root/real`), and `root/link`, a link to `root/real`.
    static func tree() throws -> URL {
        let root = try PipelineFixtures.temporaryDirectory()
        let fm = FileManager.default
        let real = root.appendingPathComponent("real")
        try fm.createDirectory(at: real.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for name in ["a.wav", "notes.txt", "sub/b.flac"] { try Data("x".utf8).write(to: real.appendingPathComponent(name)) }
        try Data("x".utf8).write(to: root.appendingPathComponent("outside.flac"))
        try fm.createSymbolicLink(
            at: real.appendingPathComponent("linked.flac"), withDestinationURL: root.appendingPathComponent("outside.flac"))
        try fm.createSymbolicLink(at: real.appendingPathComponent("loop"), withDestinationURL: real)
        try fm.createSymbolicLink(at: root.appendingPathComponent("link"), withDestinationURL: real)
        return root
    }

    @Test("a directory is searched recursively for recordings by extension, in sorted order; links to files are recordings")
    func directory() throws {
        let root = try Self.tree()
        let real = root.appendingPathComponent("real").path
        let (recordings, problems) = InputDiscovery.expand([real])
        #expect(problems.isEmpty)
        #expect(recordings.map(\.displayName) == ["a.wav", "linked.flac", "sub/b.flac"])
        #expect(recordings.map(\.path) == ["a.wav", "linked.flac", "sub/b.flac"].map { real + "/" + $0 })
    }

    @Test("a directory argument that is a link is followed, as find -H does; a link to a directory inside it is not, so it cannot loop")
    func linkedDirectory() throws {
        let root = try Self.tree()
        let link = root.appendingPathComponent("link").path
        let (recordings, problems) = InputDiscovery.expand([link])
        #expect(problems.isEmpty)
        #expect(recordings.map(\.displayName) == ["a.wav", "linked.flac", "sub/b.flac"])
        #expect(recordings.allSatisfy { $0.path.hasPrefix(link + "/") && FileManager.default.fileExists(atPath: $0.path) })
    }

    @Test("a path that does not exist is a problem naming it, and the other inputs are still expanded")
    func missingPath() throws {
        let root = try Self.tree()
        let missing = root.appendingPathComponent("nothing-here").path
        let (recordings, problems) = InputDiscovery.expand([missing, root.appendingPathComponent("real/a.wav").path])
        #expect(problems.map(\.description) == ["\(missing): no such file or directory"])
        #expect(recordings.map(\.displayName) == [root.appendingPathComponent("real/a.wav").path])
    }
}
