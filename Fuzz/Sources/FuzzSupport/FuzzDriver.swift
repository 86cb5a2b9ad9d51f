import CFuzzerDriver

#if canImport(Glibc)
import Glibc
#endif

/// Runs libFuzzer with the process's arguments on one test function, then exits.
public enum FuzzDriver {
    nonisolated(unsafe) private static var body: (UnsafeRawBufferPointer) -> Void = { _ in }

    /// Hands control to libFuzzer (`LLVMFuzzerRunDriver`), which calls `test` once per input.
    /// A crash, a sanitizer report or a Swift runtime trap inside `test` is a finding.
    public static func run(_ test: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        body = test
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzDriver.body(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
        exit(status)
    }

    /// Stops the run as a finding when `condition` is false (an oracle failure, not a crash).
    public static func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
        if !condition() {
            let text = Array("FUZZ ORACLE FAILURE: \(message())\n".utf8)
            _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            abort()
        }
    }
}
