import CSndFile
import NIOConcurrencyHelpers

/// Opens files with libsndfile so that a failed open reports its own reason.
///
/// libsndfile keeps the reason of a failed `sf_open` in one process-wide variable that every
/// `sf_open` resets, so with files opened on several threads another open could overwrite it
/// between the failure and `sf_strerror(nil)` (a file declaring a million channels was reported
/// as "No Error." during a parallel run). Every open, and the reading of that reason, hold one lock.
/// Opening only parses a header, so the lock is held briefly; reading and writing do not take it.
enum SndFileOpener {
    private static let lock = NIOLockedValueBox(())

    /// Opens `path` in `mode` (`SFM_READ` or `SFM_WRITE`): the handle, or nil and libsndfile's reason.
    static func open(_ path: String, mode: Int32, info: inout SF_INFO) -> (handle: OpaquePointer?, reason: String) {
        lock.withLockedValue { _ in
            if let handle = sf_open(path, mode, &info) { return (handle, "") }
            return (nil, String(cString: sf_strerror(nil)))
        }
    }
}
