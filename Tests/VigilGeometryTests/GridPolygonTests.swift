import Foundation
import Testing
import VigilGeometry

/// Named polygons from the spec's self-intersection vectors and extra edge cases.
struct PolygonCase: Sendable, CustomTestStringConvertible {
    let name: String
    let points: [(Int32, Int32)]
    var testDescription: String { name }
    var polygon: GridPolygon { GridPolygon(points) }
}

@Suite struct SelfIntersectionTests {
    static let validCases: [PolygonCase] = [
        PolygonCase(name: "triangle", points: [(0, 0), (10, 0), (0, 10)]),
        PolygonCase(name: "rectangle", points: [(0, 0), (20, 0), (20, 10), (0, 10)]),
        PolygonCase(name: "concave pentagon", points: [(0, 0), (10, 0), (10, 10), (5, 5), (0, 10)]),
        PolygonCase(name: "arrowhead", points: [(0, 0), (10, 5), (0, 10), (3, 5)]),
        PolygonCase(name: "collinear run of 3 in a quad", points: [(10, 10), (20, 10), (30, 10), (20, 15)]),
        PolygonCase(name: "reversed rectangle", points: [(0, 10), (20, 10), (20, 0), (0, 0)]),
        PolygonCase(
            name: "example Front Porch",
            points: [(260, 422), (1049, 0), (2048, 0), (2048, 950), (1630, 1349), (880, 2048), (0, 2048), (638, 1090)]),
        PolygonCase(name: "12-vertex star", points: starPoints(count: 6)),
        PolygonCase(name: "full UInt16 grid", points: [(0, 0), (65535, 0), (65535, 65535), (0, 65535)]),
    ]

    static let invalidCases: [(PolygonCase, PolygonDefect)] = [
        (PolygonCase(name: "empty", points: []), .tooFewVertices(count: 0)),
        (PolygonCase(name: "one vertex", points: [(1, 1)]), .tooFewVertices(count: 1)),
        (PolygonCase(name: "two vertices", points: [(1, 1), (5, 5)]), .tooFewVertices(count: 2)),
        (PolygonCase(name: "hourglass", points: [(0, 0), (10, 10), (10, 0), (0, 10)]), .intersectingEdges(first: 0, second: 2)),
        (
            PolygonCase(name: "overlapping collinear edges", points: [(0, 0), (6, 0), (6, 4), (4, 0), (2, 0)]),
            .intersectingEdges(first: 0, second: 2)
        ),
        (PolygonCase(name: "collinear triangle {0,0},{2,0},{1,0}", points: [(0, 0), (2, 0), (1, 0)]), .collinearTriangle),
        (PolygonCase(name: "collinear triangle diagonal", points: [(0, 0), (3, 3), (7, 7)]), .collinearTriangle),
        (PolygonCase(name: "first equals last", points: [(0, 0), (10, 0), (10, 10), (0, 0)]), .repeatedVertex(first: 0, second: 3)),
        (PolygonCase(name: "repeated adjacent", points: [(0, 0), (10, 0), (10, 0), (0, 10)]), .repeatedVertex(first: 1, second: 2)),
        (
            PolygonCase(name: "repeated non-adjacent", points: [(0, 0), (10, 0), (5, 5), (10, 10), (0, 10), (5, 5)]),
            .repeatedVertex(first: 2, second: 5)
        ),
        (PolygonCase(name: "triangle with duplicate", points: [(0, 0), (0, 0), (5, 5)]), .repeatedVertex(first: 0, second: 1)),
        (
            PolygonCase(name: "vertex touching a non-adjacent edge", points: [(0, 0), (10, 0), (10, 10), (5, 0), (0, 10)]),
            .intersectingEdges(first: 0, second: 2)
        ),
        (
            PolygonCase(name: "closing edge crosses edge 1", points: [(0, 0), (10, 10), (10, 0), (20, 0), (20, 5)]),
            .intersectingEdges(first: 1, second: 4)
        ),
        (
            PolygonCase(name: "bow tie with 6 vertices", points: [(0, 0), (5, 0), (10, 10), (15, 10), (15, 0), (0, 10)]),
            .intersectingEdges(first: 1, second: 4)
        ),
    ]

    static func starPoints(count: Int) -> [(Int32, Int32)] {
        // Alternating outer/inner radius around (1000, 1000): simple, 2 * count vertices.
        (0..<(2 * count)).map { index in
            let angle = Double(index) * Double.pi / Double(count)
            let radius = index % 2 == 0 ? 900.0 : 400.0
            return (Int32(1000 + radius * cos(angle)), Int32(1000 + radius * sin(angle)))
        }
    }

    @Test(arguments: validCases)
    func validPolygonsHaveNoDefect(_ polygonCase: PolygonCase) {
        #expect(polygonCase.polygon.simplicityDefect == nil)
        #expect(!polygonCase.polygon.isSelfIntersecting)
    }

    @Test(arguments: invalidCases)
    func invalidPolygonsReportTheFirstDefect(_ polygonCase: PolygonCase, _ defect: PolygonDefect) {
        #expect(polygonCase.polygon.simplicityDefect == defect)
        #expect(polygonCase.polygon.isSelfIntersecting)
    }

    @Test func defectDescriptionsNameTheIndices() {
        #expect(PolygonDefect.intersectingEdges(first: 0, second: 2).description == "edges 0 and 2 intersect")
        #expect(PolygonDefect.repeatedVertex(first: 0, second: 3).description == "vertices 0 and 3 are the same point")
        #expect(PolygonDefect.collinearTriangle.description == "the 3 vertices are collinear")
        #expect(PolygonDefect.tooFewVertices(count: 2).description == "only 2 vertices, at least 3 needed")
    }

    @Test func everyRotationOfAValidPolygonStaysValidAndInvalidStaysInvalid() {
        for polygonCase in Self.validCases {
            let points = polygonCase.points
            for shift in 0..<points.count {
                let rotated = Array(points[shift...] + points[..<shift])
                #expect(GridPolygon(rotated).simplicityDefect == nil, "\(polygonCase.name) rotated by \(shift)")
                #expect(GridPolygon(Array(rotated.reversed())).simplicityDefect == nil)
            }
        }
        for (polygonCase, _) in Self.invalidCases where polygonCase.points.count >= 3 {
            let points = polygonCase.points
            for shift in 0..<points.count {
                let rotated = Array(points[shift...] + points[..<shift])
                #expect(GridPolygon(rotated).isSelfIntersecting, "\(polygonCase.name) rotated by \(shift)")
            }
        }
    }

    struct SegmentCase: Sendable, CustomTestStringConvertible {
        let name: String
        let a: GridPoint, b: GridPoint, c: GridPoint, d: GridPoint
        let intersects: Bool
        var testDescription: String { name }
        init(_ name: String, _ s: [Int32], _ intersects: Bool) {
            self.name = name
            a = GridPoint(x: s[0], y: s[1])
            b = GridPoint(x: s[2], y: s[3])
            c = GridPoint(x: s[4], y: s[5])
            d = GridPoint(x: s[6], y: s[7])
            self.intersects = intersects
        }
    }

    static let segmentCases: [SegmentCase] = [
        SegmentCase("proper crossing", [0, 0, 10, 0, 5, -5, 5, 5], true),
        SegmentCase("shared end point", [0, 0, 10, 0, 10, 0, 10, 5], true),
        SegmentCase("T touch", [0, 0, 10, 0, 5, 0, 5, 5], true),
        SegmentCase("collinear overlap", [0, 0, 10, 0, 5, 0, 15, 0], true),
        SegmentCase("collinear contained", [0, 0, 10, 0, 2, 0, 3, 0], true),
        SegmentCase("collinear disjoint", [0, 0, 10, 0, 11, 0, 15, 0], false),
        SegmentCase("parallel", [0, 0, 10, 0, 0, 1, 10, 1], false),
        SegmentCase("stops short", [0, 0, 10, 0, 5, 1, 5, 5], false),
        SegmentCase("degenerate point on segment", [0, 0, 0, 0, 0, 0, 3, 3], true),
        SegmentCase("degenerate point off segment", [1, 0, 1, 0, 0, 0, 3, 3], false),
        SegmentCase("large coordinates", [0, 0, 65535, 65535, 0, 65535, 65535, 0], true),
    ]

    @Test(arguments: segmentCases)
    func segmentIntersection(_ s: SegmentCase) {
        #expect(GridPolygon.segmentsIntersect(s.a, s.b, s.c, s.d) == s.intersects)
        #expect(GridPolygon.segmentsIntersect(s.c, s.d, s.a, s.b) == s.intersects)
        #expect(GridPolygon.segmentsIntersect(s.b, s.a, s.d, s.c) == s.intersects)
    }

    @Test func orientationSigns() {
        let o = GridPoint(x: 0, y: 0)
        #expect(GridPolygon.orientation(o, GridPoint(x: 1, y: 0), GridPoint(x: 1, y: 1)) == 1)
        #expect(GridPolygon.orientation(o, GridPoint(x: 1, y: 1), GridPoint(x: 1, y: 0)) == -1)
        #expect(GridPolygon.orientation(o, GridPoint(x: 1, y: 1), GridPoint(x: 2, y: 2)) == 0)
        // Products near 2^61 stay exact in 64-bit arithmetic.
        let big: Int32 = 1 << 30 - 1
        #expect(GridPolygon.orientation(GridPoint(x: -big, y: -big), GridPoint(x: big, y: big), GridPoint(x: big - 1, y: big)) == 1)
    }
}

struct AreaCase: Sendable {
    let points: [(Int32, Int32)]
    let area: Double
    let doubled: Int64
}

@Suite struct PolygonAreaTests {
    static let cases: [AreaCase] = [
        AreaCase(points: [], area: 0, doubled: 0),
        AreaCase(points: [(1, 1)], area: 0, doubled: 0),
        AreaCase(points: [(1, 1), (4, 5)], area: 0, doubled: 0),
        AreaCase(points: [(0, 0), (10, 0), (0, 10)], area: 50, doubled: 100),
        AreaCase(points: [(0, 0), (0, 10), (10, 0)], area: 50, doubled: -100),
        AreaCase(points: [(0, 0), (20, 0), (20, 10), (0, 10)], area: 200, doubled: 400),
        AreaCase(points: [(0, 0), (10, 0), (10, 10), (5, 5), (0, 10)], area: 75, doubled: 150),
        AreaCase(points: [(0, 0), (2, 0), (1, 0)], area: 0, doubled: 0),
        AreaCase(points: [(0, 0), (65535, 0), (65535, 65535), (0, 65535)], area: 4_294_836_225, doubled: 8_589_672_450),
    ]

    @Test(arguments: cases)
    func shoelace(_ areaCase: AreaCase) {
        let polygon = GridPolygon(areaCase.points)
        #expect(polygon.area == areaCase.area)
        #expect(polygon.doubledSignedArea == areaCase.doubled)
    }
}
