/// Vigil's version: `vigil --version`, and part of every run's fingerprint (``BatchAnalysis/runFingerprint(device:plan:report:)``).
public enum VigilVersion {
    /// The version string.
    public static let string = "0.1.0"
}
