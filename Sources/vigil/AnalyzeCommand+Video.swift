import ArgumentParser
import Foundation
import VigilAnalysis
import VigilCore
import VigilDevice
import VigilPipeline
import VigilVision

extension BlobAnchor: ExpressibleByArgument {}

extension AnalyzeCommand {
    /// Checks the video options' combinations.
    func validateVideoOptions() throws {
        if frames != nil && video != nil { throw ValidationError("give either --frames or --video, not both") }
        if (frames != nil || video != nil) && !inputs.isEmpty {
            throw ValidationError("--frames and --video analyze one recording; do not also give audio inputs (use --audio FILE)")
        }
        if (motionMasks != nil || motionTrace != nil) && frames == nil && video == nil {
            throw ValidationError("--motion-masks and --motion-trace go with --frames or --video")
        }
        if audio != nil && frames == nil && video == nil { throw ValidationError("--audio goes with --frames or --video") }
        if fps != nil && frames == nil { throw ValidationError("--fps goes with --frames") }
        if let fps, !(fps > 0 && fps.isFinite) { throw ValidationError("--fps must be a positive number") }
    }
}
