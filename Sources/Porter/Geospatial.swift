import Foundation
import PorterQuery

// Realm's geospatial queries (Realm Swift 10.47+): points stored as GeoJSON-shaped embedded
// objects (`type` "Point", `coordinates` [longitude, latitude]) and `geoWithin` a box, circle or
// polygon in `where { }`.

/// A point on the globe, as Realm's `GeoPoint`: latitude in [-90, 90], longitude in [-180, 180].
public struct GeoPoint: Sendable, Hashable {
    /// Degrees north (negative: south).
    public let latitude: Double
    /// Degrees east (negative: west).
    public let longitude: Double

    /// A point, or nil when latitude or longitude is out of range (or NaN), as in Realm.
    public init?(latitude: Double, longitude: Double) {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A point from `(latitude, longitude)`.
    public init?(_ coordinates: (Double, Double)) { self.init(latitude: coordinates.0, longitude: coordinates.1) }
}

/// A distance for ``GeoCircle``, as Realm's `Distance`, kept in radians of the Earth's great circle.
public struct Distance: Sendable, Hashable {
    /// The Earth's radius realm-core uses (6,378.1 km).
    static let earthRadiusMeters = 6_378_100.0
    /// The distance as an angle at the Earth's centre.
    public let radians: Double

    /// A distance in kilometres, or nil when negative.
    public static func kilometers(_ value: Double) -> Distance? { radians(value * 1000 / earthRadiusMeters) }
    /// A distance in miles, or nil when negative.
    public static func miles(_ value: Double) -> Distance? { radians(value * 1609.344 / earthRadiusMeters) }
    /// A distance in degrees of arc, or nil when negative.
    public static func degrees(_ value: Double) -> Distance? { radians(value * .pi / 180) }
    /// A distance in radians, or nil when negative.
    public static func radians(_ value: Double) -> Distance? { value >= 0 ? Distance(radians: value) : nil }

    private init(radians: Double) { self.radians = radians }
    /// The distance as an angle in degrees.
    public var asDegrees: Double { radians * 180 / .pi }
    /// The distance in kilometres.
    public var asKilometers: Double { radians * Distance.earthRadiusMeters / 1000 }
}

/// A shape ``Query/geoWithin(_:)`` tests points against.
public protocol GeoShape: Sendable {
    /// Whether `point` lies within the shape (on its boundary counts).
    func contains(_ point: GeoPoint) -> Bool
}

/// A rectangle between two corners, as Realm's `GeoBox`.
public struct GeoBox: GeoShape, Hashable {
    /// The south-west corner.
    public let bottomLeft: GeoPoint
    /// The north-east corner.
    public let topRight: GeoPoint

    /// A box from its corners.
    public init(bottomLeft: GeoPoint, topRight: GeoPoint) {
        self.bottomLeft = bottomLeft
        self.topRight = topRight
    }

    /// A box from `(latitude, longitude)` corners, or nil when one is out of range.
    public init?(bottomLeft: (Double, Double), topRight: (Double, Double)) {
        guard let low = GeoPoint(bottomLeft), let high = GeoPoint(topRight) else { return nil }
        self.init(bottomLeft: low, topRight: high)
    }

    /// Whether `point` lies between the corners' latitudes and longitudes (across the
    /// antimeridian when the left longitude is east of the right one).
    public func contains(_ point: GeoPoint) -> Bool {
        guard point.latitude >= bottomLeft.latitude && point.latitude <= topRight.latitude else { return false }
        if bottomLeft.longitude <= topRight.longitude {
            return point.longitude >= bottomLeft.longitude && point.longitude <= topRight.longitude
        }
        return point.longitude >= bottomLeft.longitude || point.longitude <= topRight.longitude
    }
}

/// The points within a great-circle distance of a centre, as Realm's `GeoCircle`.
public struct GeoCircle: GeoShape, Hashable {
    /// The centre.
    public let center: GeoPoint
    /// The radius as an angle at the Earth's centre.
    public let radiusInRadians: Double

    /// A circle with a radius in radians, or nil when the radius is negative.
    public init?(center: GeoPoint, radiusInRadians: Double) {
        guard radiusInRadians >= 0 else { return nil }
        self.center = center
        self.radiusInRadians = radiusInRadians
    }

    /// A circle with a radius given as a ``Distance``.
    public init?(center: GeoPoint, radius: Distance) { self.init(center: center, radiusInRadians: radius.radians) }

    /// A circle around `(latitude, longitude)`, or nil when out of range.
    public init?(center: (Double, Double), radiusInRadians: Double) {
        guard let point = GeoPoint(center) else { return nil }
        self.init(center: point, radiusInRadians: radiusInRadians)
    }

    /// A circle around `(latitude, longitude)` with a ``Distance`` radius.
    public init?(center: (Double, Double), radius: Distance) {
        guard let point = GeoPoint(center) else { return nil }
        self.init(center: point, radius: radius)
    }

    /// Whether the great-circle (haversine) distance from the centre is at most the radius.
    public func contains(_ point: GeoPoint) -> Bool {
        let (lat1, lat2) = (center.latitude * .pi / 180, point.latitude * .pi / 180)
        let dLat = lat2 - lat1
        let dLon = (point.longitude - center.longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * asin(min(1, sqrt(a))) <= radiusInRadians
    }
}

/// A polygon with optional holes, as Realm's `GeoPolygon`: each ring is closed (first point
/// equals last) and has at least 4 points.
public struct GeoPolygon: GeoShape, Hashable {
    /// The outer ring.
    public let outerRing: [GeoPoint]
    /// Holes cut out of it.
    public let holes: [[GeoPoint]]

    /// A polygon, or nil when a ring has fewer than 4 points or is not closed, as in Realm.
    public init?(outerRing: [GeoPoint], holes: [[GeoPoint]] = []) {
        for ring in [outerRing] + holes {
            guard ring.count >= 4, ring.first == ring.last else { return nil }
        }
        self.outerRing = outerRing
        self.holes = holes
    }

    /// A polygon of `(latitude, longitude)` pairs, or nil when a point is out of range or a
    /// ring is invalid.
    public init?(outerRing: [(Double, Double)], holes: [[(Double, Double)]] = []) {
        let outer = outerRing.compactMap { GeoPoint($0) }
        let inner = holes.map { ring in ring.compactMap { GeoPoint($0) } }
        guard outer.count == outerRing.count, zip(inner, holes).allSatisfy({ $0.count == $1.count }) else { return nil }
        self.init(outerRing: outer, holes: inner)
    }

    /// Whether `point` is inside the outer ring and outside every hole. Edges are straight
    /// lines in latitude/longitude (realm-core uses geodesics: the two differ for long edges).
    public func contains(_ point: GeoPoint) -> Bool {
        Self.ring(outerRing, contains: point) && !holes.contains { Self.ring($0, contains: point) }
    }

    private static func ring(_ ring: [GeoPoint], contains point: GeoPoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let (a, b) = (ring[i], ring[j])
            if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let slope = (b.longitude - a.longitude) / (b.latitude - a.latitude)
                let crossing = slope * (point.latitude - a.latitude) + a.longitude
                if point.longitude < crossing { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

extension Query where T: _QueryGeoOptional {
    /// The objects whose point (a GeoJSON-shaped embedded object: `type` "Point" and
    /// `coordinates` [longitude, latitude]) lies within `shape` (Realm's `geoWithin`). An object
    /// whose point is nil or not such an object does not match.
    public func geoWithin<U: GeoShape>(_ shape: U) -> Query<Bool> {
        withPath { .opaque($0, GeoWithin(shape: shape)) }
    }
}

/// Realm's `geoWithin` as a query condition: the point stored at the path lies within `shape`
/// (evaluated by the typed API, through its objects).
struct GeoWithin: QueryOpaqueCondition {
    let shape: any GeoShape
    var description: String { "geoWithin" }
}

/// Optional embedded objects, the properties `geoWithin` applies to.
public protocol _QueryGeoOptional {}
extension Optional: _QueryGeoOptional where Wrapped: EmbeddedObject {}

/// The point a GeoJSON-shaped embedded object stores, or nil when it stores none.
func geoPoint(of value: Any?) -> GeoPoint? {
    guard let object = value as? ObjectBase, object.value(forKey: "type") as? String == "Point",
        let coordinates = object.value(forKey: "coordinates") as? any Sequence
    else { return nil }
    let numbers = coordinates.compactMap { $0 as? Double }
    guard numbers.count >= 2 else { return nil }
    return GeoPoint(latitude: numbers[1], longitude: numbers[0])
}
