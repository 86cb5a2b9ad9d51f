import Dispatch
import Foundation

/// Shared state of one ``parallelMap(_:jobs:onDone:_:)`` run; every access holds `lock`.
private final class ParallelMapState<T: Sendable, R: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    let items: [T]
    var results: [R?]
    var next = 0

    init(items: [T]) {
        self.items = items
        results = [R?](repeating: nil, count: items.count)
    }

    /// The next index to work on, or nil when all are taken.
    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < items.count else { return nil }
        next += 1
        return next - 1
    }
}

/// Maps `items` on up to `jobs` threads and returns the results in input order, so output
/// does not depend on the number of jobs. `onDone` is called, one call at a time, as each
/// item finishes.
func parallelMap<T: Sendable, R: Sendable>(
    _ items: [T], jobs: Int, onDone: @escaping @Sendable (Int, R) -> Void = { _, _ in },
    _ body: @escaping @Sendable (T) -> R
) -> [R] {
    guard !items.isEmpty else { return [] }
    let state = ParallelMapState<T, R>(items: items)
    let workers = max(1, min(jobs, items.count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while let index = state.take() {
            let result = body(state.items[index])
            state.lock.lock()
            state.results[index] = result
            onDone(index, result)
            state.lock.unlock()
        }
    }
    return state.results.map { $0! }
}

/// The number of cores available to this process.
var availableCores: Int { ProcessInfo.processInfo.activeProcessorCount }

/// Peak resident memory of this process so far, in bytes.
var peakResidentBytes: Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
}
