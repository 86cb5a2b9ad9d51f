import Foundation
import Testing

/// Where the tests' temporary folders go: one folder per test process, which its exit handler removes.
@Suite struct TemporaryDirectoryTests {
    @Test("temporary folders are new, empty and inside this process's vigil-tests-PID folder")
    func perProcessFolder() throws {
        let first = try PipelineFixtures.temporaryDirectory()
        let second = try PipelineFixtures.temporaryDirectory()
        #expect(first != second)
        let parent = first.deletingLastPathComponent()
        #expect(parent.lastPathComponent == "vigil-tests-\(getpid())")
        #expect(second.deletingLastPathComponent() == parent)
        #expect(parent.deletingLastPathComponent().standardizedFileURL == FileManager.default.temporaryDirectory.standardizedFileURL)
        #expect(try FileManager.default.contentsOfDirectory(atPath: first.path).isEmpty)
        #expect(first.lastPathComponent.hasPrefix("vigil-pipeline-"))
    }
}
