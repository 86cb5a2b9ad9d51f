import Dispatch
import Foundation

/// Shared state of one ``parallelMap(_:jobs:onDone:_:)`` run; every access holds `lock`.
private final class ParallelMapState<T: Sendable, R: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    let items: [T]
    var results: [R?]
    var next = 0
    var emitted = 0

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

/// Runs `body` on `items` on up to `jobs` threads and hands each result to `emit` in input order
/// (one call at a time), as soon as it and all before it are done, so streamed output does not
/// depend on the number of jobs. Results waiting for an earlier item are held in memory.
public func orderedParallelForEach<T: Sendable, R: Sendable>(
    _ items: [T], jobs: Int, emit: @escaping @Sendable (Int, R) -> Void, _ body: @escaping @Sendable (T) -> R
) {
    guard !items.isEmpty else { return }
    let state = ParallelMapState<T, R>(items: items)
    let workers = max(1, min(jobs, items.count))
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while let index = state.take() {
            let result = body(state.items[index])
            state.lock.lock()
            state.results[index] = result
            while state.emitted < state.items.count, let ready = state.results[state.emitted] {
                state.results[state.emitted] = nil
                emit(state.emitted, ready)
                state.emitted += 1
            }
            state.lock.unlock()
        }
    }
}

/// Maps `items` on up to `jobs` threads and returns the results in input order.
public func parallelMap<T: Sendable, R: Sendable>(
    _ items: [T], jobs: Int, onDone: @escaping @Sendable (Int, R) -> Void = { _, _ in },
    _ body: @escaping @Sendable (T) -> R
) -> [R] {
    let collected = ParallelMapState<Int, R>(items: Array(items.indices))
    orderedParallelForEach(items, jobs: jobs, emit: { index, result in
        collected.results[index] = result  // emit runs under the runner's lock, one call at a time
        onDone(index, result)
    }, body)
    return collected.results.map { $0! }
}

/// The number of cores available to this process.
public var availableCores: Int { ProcessInfo.processInfo.activeProcessorCount }

/// Peak resident memory of this process so far, in bytes.
public var peakResidentBytes: Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss) * 1024
}

/// CPU time consumed by the calling thread, in seconds (CLOCK_THREAD_CPUTIME_ID). One-core
/// throughput figures use it, so that other processes on a busy machine do not distort them.
public func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// CPU time consumed by the whole process (all threads), in seconds (CLOCK_PROCESS_CPUTIME_ID).
public func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
