import Foundation

/// One recording to analyze.
public struct InputRecording: Sendable, Hashable {
    /// Path to open.
    public var path: String
    /// Name reported in output: relative to the directory argument, or as given for files.
    public var displayName: String
    /// Name of the recording's result folder under `--out`: relative to the directory argument, or
    /// the file's own name for a file argument (never the path it was given by).
    public var outputName: String

    /// A recording; its result folder is named `outputName`, or after the last component of `displayName`.
    public init(path: String, displayName: String, outputName: String? = nil) {
        self.path = path
        self.displayName = displayName
        self.outputName = outputName ?? Self.lastComponent(of: displayName)
    }

    /// The last component of `path` once `.` and `..` are resolved (`_` for a root).
    public static func lastComponent(of path: String) -> String {
        let name = URL(fileURLWithPath: path).standardizedFileURL.lastPathComponent
        return name.isEmpty || name == "/" ? "_" : name
    }
}

/// Expands command-line inputs into recordings: files as given, directories searched
/// recursively for audio files and containers (by extension: ``InputDiscovery/audioExtensions``,
/// ``RecordingSource/containerExtensions``), in sorted order so runs are deterministic. A directory
/// argument that is a symbolic link is followed, as `find -H` does; links to directories inside it are
/// not (a link back up the tree cannot loop), while links to files are recordings like any file.
public enum InputDiscovery {
    /// Extensions of audio files picked up inside directories (libsndfile's formats).
    public static let audioExtensions: Set<String> = [
        "wav", "wave", "flac", "ogg", "oga", "opus", "aif", "aiff", "aifc", "caf", "au", "snd", "w64", "rf64", "mp3", "voc",
        "sd2", "htk", "pvf", "xi", "mat", "mat4", "mat5", "iff", "svx", "sf", "ircam", "nist", "paf", "avr", "wve", "mpc",
    ]

    /// A problem with an input argument itself (missing path).
    public struct Problem: Error, CustomStringConvertible {
        /// The file or directory concerned.
        public var path: String
        /// Why it failed.
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Expands `arguments`; missing paths are returned as problems and do not stop the others.
    public static func expand(_ arguments: [String]) -> (recordings: [InputRecording], problems: [Problem]) {
        var recordings: [InputRecording] = []
        var problems: [Problem] = []
        let fm = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                problems.append(Problem(path: argument, reason: "no such file or directory"))
                continue
            }
            if !isDirectory.boolValue {
                recordings.append(InputRecording(path: argument, displayName: argument))
                continue
            }
            let base = URL(fileURLWithPath: argument).standardizedFileURL.path
            // The enumerator does not descend into a link, so list the folder the argument leads to.
            let listed = URL(fileURLWithPath: argument).resolvingSymlinksInPath().path
            guard let walker = fm.enumerator(atPath: listed) else {
                problems.append(Problem(path: argument, reason: "cannot list directory"))
                continue
            }
            var found: [String] = []
            while let relative = walker.nextObject() as? String {
                let ext = (relative as NSString).pathExtension.lowercased()
                guard audioExtensions.contains(ext) || RecordingSource.containerExtensions.contains(ext) else { continue }
                let full = (base as NSString).appendingPathComponent(relative)
                var dir: ObjCBool = false
                if fm.fileExists(atPath: full, isDirectory: &dir), !dir.boolValue { found.append(relative) }
            }
            for relative in found.sorted() {
                recordings.append(
                    InputRecording(
                        path: (argument as NSString).appendingPathComponent(relative), displayName: relative, outputName: relative))
            }
        }
        return (recordings, problems)
    }
}
