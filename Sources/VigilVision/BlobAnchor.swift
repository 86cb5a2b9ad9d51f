/// How a motion blob is assigned to zones, on top of the zone's motion-fraction test.
public enum BlobAnchor: String, Sendable, Hashable, CaseIterable {
    /// A blob counts for every zone that any of its moving pixels lies in.
    case anyPixel
    /// A blob counts for a zone when its bottom-centre point (the middle of its bounding box's
    /// lowest row: where a person or vehicle touches the ground) lies in the zone.
    case bottomCentre
    /// A blob counts for a zone when its centroid lies in the zone.
    case centroid
}
