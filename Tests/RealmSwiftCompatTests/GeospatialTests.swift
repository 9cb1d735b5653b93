import Foundation
import RealmSwift
import Testing

// Geospatial queries as Realm's documentation writes them ("Query Geospatial Data").

class CustomGeoPoint: EmbeddedObject {
    @Persisted private var type: String = "Point"
    @Persisted private var coordinates: List<Double>

    public var latitude: Double { return coordinates[1] }
    public var longitude: Double { return coordinates[0] }

    convenience init(_ latitude: Double, _ longitude: Double) {
        self.init()
        coordinates.append(objectsIn: [longitude, latitude])
    }
}

class Geospatial_Company: Object {
    @Persisted var _id: ObjectId
    @Persisted var name = ""
    @Persisted var location: CustomGeoPoint?

    convenience init(_ name: String, _ location: CustomGeoPoint?) {
        self.init()
        self.name = name
        self.location = location
    }
}

@Suite struct GeospatialTests {
    private func companies() throws -> Realm {
        let realm = try Realm(
            configuration: .init(
                inMemoryIdentifier: "geo-\(UUID().uuidString)",
                objectTypes: [Geospatial_Company.self, CustomGeoPoint.self]))
        try realm.write {
            realm.add(Geospatial_Company("Seattle", CustomGeoPoint(47.68, -122.35)))
            realm.add(Geospatial_Company("Duvall", CustomGeoPoint(47.9, -121.85)))
            realm.add(Geospatial_Company("Nowhere", nil))
        }
        return realm
    }

    @Test func geoWithinACircle() throws {
        let realm = try companies()
        let smallCircle = GeoCircle(center: (47.6, -122.3), radius: .kilometers(20)!)!
        #expect(
            realm.objects(Geospatial_Company.self).where { $0.location.geoWithin(smallCircle) }.map(\.name)
                == ["Seattle"])
        let largeCircle = GeoCircle(center: (47.3, -121.9), radiusInRadians: 0.25)!
        #expect(realm.objects(Geospatial_Company.self).where { $0.location.geoWithin(largeCircle) }.count == 2)
    }

    @Test func geoWithinABox() throws {
        let realm = try companies()
        let largeBox = GeoBox(bottomLeft: (47.3, -122.7), topRight: (48.1, -121.8))!
        #expect(realm.objects(Geospatial_Company.self).where { $0.location.geoWithin(largeBox) }.count == 2)
        let smallBox = GeoBox(bottomLeft: (47.5, -122.4), topRight: (47.7, -122.3))!
        #expect(
            realm.objects(Geospatial_Company.self).where { $0.location.geoWithin(smallBox) }.map(\.name)
                == ["Seattle"])
        #expect(
            realm.objects(Geospatial_Company.self).where { !$0.location.geoWithin(smallBox) }.map(\.name)
                == ["Duvall", "Nowhere"])
    }

    @Test func geoWithinAPolygonWithAHole() throws {
        let realm = try companies()
        let outer = [(48.0, -122.0), (48.0, -121.7), (47.8, -121.7), (47.8, -122.0), (48.0, -122.0)]
        let polygon = GeoPolygon(outerRing: outer)!
        #expect(
            realm.objects(Geospatial_Company.self).where { $0.location.geoWithin(polygon) }.map(\.name)
                == ["Duvall"])
        let hole = [(47.95, -121.9), (47.95, -121.8), (47.85, -121.8), (47.85, -121.9), (47.95, -121.9)]
        let withHole = GeoPolygon(outerRing: outer, holes: [hole])!
        #expect(realm.objects(Geospatial_Company.self).where { $0.location.geoWithin(withHole) }.isEmpty)
    }

    @Test func invalidShapesAreNil() {
        #expect(GeoPoint(latitude: 91, longitude: 0) == nil)
        #expect(GeoPoint(latitude: 0, longitude: -180.5) == nil)
        #expect(GeoCircle(center: (0, 0), radiusInRadians: -1) == nil)
        #expect(Distance.kilometers(-1) == nil)
        #expect(GeoBox(bottomLeft: (-95, 0), topRight: (1, 1)) == nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (1, 1), (0, 0)]) == nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (1, 1), (1, 0), (0, 1)]) == nil)
        #expect(GeoPolygon(outerRing: [(0, 0), (0, 1), (1, 1), (0, 0)], holes: [[(0, 0), (0, 1)]]) == nil)
    }
}
