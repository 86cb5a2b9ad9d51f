import Dispatch
import Foundation
import NIOConcurrencyHelpers

/// Shared state of one ``orderedParallelForEach(_:jobs:emit:_:)`` run: the items, and under one
/// lock the results waiting for an earlier item, the next item to take and the next to emit.
private final class ParallelMapState<T: Sendable, R: Sendable>: Sendable {
    /// What the lock guards.
    private struct Progress {
        var results: [R?]
        var next = 0
        var emitted = 0
    }

    let items: [T]
    private let progress: NIOLockedValueBox<Progress>

    init(items: [T]) {
        self.items = items
        progress = NIOLockedValueBox(Progress(results: [R?](repeating: nil, count: items.count)))
    }

    /// The next index to work on, or nil when all are taken.
    func take() -> Int? {
        progress.withLockedValue { progress in
            guard progress.next < items.count else { return nil }
            progress.next += 1
            return progress.next - 1
        }
    }

    /// Stores the result of item `index`, then hands every result that is now next in input order
    /// to `emit`, holding the lock (so `emit` runs one call at a time, in order).
    func complete(_ index: Int, with result: R, emit: (Int, R) -> Void) {
        progress.withLockedValue { progress in
            progress.results[index] = result
            while progress.emitted < items.count, let ready = progress.results[progress.emitted] {
                progress.results[progress.emitted] = nil
                emit(progress.emitted, ready)
                progress.emitted += 1
            }
        }
    }
}

/// The results of a ``parallelMap(_:jobs:onDone:_:)`` run, by input index.
private final class ParallelMapResults<R: Sendable>: Sendable {
    private let slots: NIOLockedValueBox<[R?]>

    init(count: Int) { slots = NIOLockedValueBox([R?](repeating: nil, count: count)) }

    func store(_ result: R, at index: Int) { slots.withLockedValue { $0[index] = result } }

    /// Every result, in input order (call when all are stored).
    var all: [R] { slots.withLockedValue { $0.map { $0! } } }
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
            state.complete(index, with: body(state.items[index]), emit: emit)
        }
    }
}

/// Maps `items` on up to `jobs` threads and returns the results in input order.
public func parallelMap<T: Sendable, R: Sendable>(
    _ items: [T], jobs: Int, onDone: @escaping @Sendable (Int, R) -> Void = { _, _ in },
    _ body: @escaping @Sendable (T) -> R
) -> [R] {
    let collected = ParallelMapResults<R>(count: items.count)
    orderedParallelForEach(
        items, jobs: jobs,
        emit: { index, result in
            collected.store(result, at: index)
            onDone(index, result)
        }, body)
    return collected.all
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
