// FirestoreWire: Firestore's vocabulary on the wire, shared by the server and the client:
// values, resource names and field paths in requests, and statuses to errors both ways.

import DocumentStore
import FirestoreProtocol
import Foundation
import SwiftProtobuf

/// Firestore's values on the wire (`google.firestore.v1.Value`) and in the store
/// (`FirestoreValue`), both ways: the server reads requests and writes responses with them,
/// the client (DocumentStoreRemote) the other way round. References name a document of one
/// database (`projects/p/databases/d`), made a reference of `store`; a value the store cannot
/// hold is refused with the field's name.
package struct WireValues: Sendable {
    /// `projects/p/databases/d`: references are named under its documents.
    package let databaseName: String
    package let store: Firestore

    package init(databaseName: String, store: Firestore) {
        self.databaseName = databaseName
        self.store = store
    }

    /// The name of the document or collection at `path` (the root: the database's documents).
    package func name(of path: ResourcePath) -> String { ResourceName.name(of: path.segments, inDatabase: databaseName) }

    /// A reference value's document, in `store`. A reference to another project or database
    /// is kept as the same path here.
    package func reference(_ resourceName: String, field: String) throws(WireError) -> DocumentReference {
        let parsed = try ResourceName.parse(resourceName, field: field)
        guard parsed.namesDocument else {
            throw .invalidArgument("\(field): the reference \"\(resourceName)\" does not name a document")
        }
        return store.document(parsed.path.joined(separator: "/"))
    }

    /// A value to store: an array in an array is refused, as Firestore refuses it in a document.
    package func value(_ wire: Google_Firestore_V1_Value, field: String) throws(WireError) -> FirestoreValue {
        try value(wire, field: field, nestedArrays: false)
    }

    /// A value a query compares with (a filter's operand, a cursor's value): an array in an
    /// array is taken, as Firestore takes it; no document holds one, so it equals none.
    package func operand(_ wire: Google_Firestore_V1_Value, field: String) throws(WireError) -> FirestoreValue {
        try value(wire, field: field, nestedArrays: true)
    }

    private func value(_ wire: Google_Firestore_V1_Value, field: String, nestedArrays: Bool) throws(WireError) -> FirestoreValue {
        switch wire.valueType {
        case nil, .nullValue: return .null
        case .booleanValue(let b): return .boolean(b)
        case .integerValue(let i): return .integer(i)
        case .doubleValue(let d): return .double(d)
        case .timestampValue(let t): return .timestamp(try timestamp(t, field: field))
        case .stringValue(let s): return .string(s)
        case .bytesValue(let data): return .bytes(data)
        case .referenceValue(let name): return .reference(try reference(name, field: field))
        case .geoPointValue(let point):
            guard (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else {
                throw .invalidArgument("\(field): a geo point's latitude must be within -90...90 and its longitude within -180...180, got (\(point.latitude), \(point.longitude))")
            }
            return .geoPoint(GeoPoint(latitude: point.latitude, longitude: point.longitude))
        case .arrayValue(let array):
            var items: [FirestoreValue] = []
            items.reserveCapacity(array.values.count)
            for (index, item) in array.values.enumerated() {
                if case .arrayValue = item.valueType, !nestedArrays {
                    throw .invalidArgument("\(field)[\(index)]: Cannot have an array value inside an array value")
                }
                items.append(try value(item, field: "\(field)[\(index)]", nestedArrays: nestedArrays))
            }
            return .array(items)
        case .mapValue(let map): return .map(try fields(map.fields, under: field, nestedArrays: nestedArrays))
        }
    }

    package func fields(_ wire: [String: Google_Firestore_V1_Value], under parent: String = "") throws(WireError) -> Fields {
        try fields(wire, under: parent, nestedArrays: false)
    }

    private func fields(_ wire: [String: Google_Firestore_V1_Value], under parent: String, nestedArrays: Bool) throws(WireError) -> Fields {
        var fields: [String: FirestoreValue] = [:]
        fields.reserveCapacity(wire.count)
        for (name, item) in wire {
            fields[name] = try value(item, field: parent.isEmpty ? name : parent + "." + name, nestedArrays: nestedArrays)
        }
        return Fields(fields)
    }

    package func timestamp(_ wire: Google_Protobuf_Timestamp, field: String) throws(WireError) -> Timestamp {
        guard (0..<1_000_000_000).contains(wire.nanos) else {
            throw .invalidArgument("\(field): a timestamp's nanos must be within 0...999999999, got \(wire.nanos)")
        }
        return Timestamp(seconds: wire.seconds, nanoseconds: wire.nanos)
    }

    package func wire(_ value: FirestoreValue) -> Google_Firestore_V1_Value {
        var message = Google_Firestore_V1_Value()
        switch value {
        case .null: message.nullValue = .nullValue
        case .boolean(let b): message.booleanValue = b
        case .integer(let i): message.integerValue = i
        case .double(let d): message.doubleValue = d
        case .timestamp(let t): message.timestampValue = Self.wire(t)
        case .string(let s): message.stringValue = s
        case .bytes(let data): message.bytesValue = data
        case .reference(let reference): message.referenceValue = name(of: reference.resourcePath)
        case .geoPoint(let point):
            var latLng = Google_Type_LatLng()
            latLng.latitude = point.latitude
            latLng.longitude = point.longitude
            message.geoPointValue = latLng
        case .array(let items):
            var array = Google_Firestore_V1_ArrayValue()
            array.values = items.map { wire($0) }
            message.arrayValue = array
        case .map(let fields):
            var map = Google_Firestore_V1_MapValue()
            map.fields = wire(fields)
            message.mapValue = map
        }
        return message
    }

    package func wire(_ fields: Fields) -> [String: Google_Firestore_V1_Value] {
        var wire: [String: Google_Firestore_V1_Value] = [:]
        wire.reserveCapacity(fields.count)
        for (name, value) in fields { wire[name] = self.wire(value) }
        return wire
    }

    package static func wire(_ timestamp: Timestamp) -> Google_Protobuf_Timestamp {
        Google_Protobuf_Timestamp(seconds: timestamp.seconds, nanos: timestamp.nanoseconds)
    }
}
