import DocumentStore
import FirestoreProtocol
import FirestoreWire
import Foundation

/// A `google.firestore.v1.Write` as the store's `FirestoreWrite`.
extension FirestoreWrite {
    init(_ wire: Google_Firestore_V1_Write, index: Int, in database: ServedDatabase) throws(WireError) {
        let field = "writes[\(index)]"
        let values = database.values
        let path: String
        var operation: FirestoreWrite.Operation
        var transforms = try Self.transforms(wire.updateTransforms, values: values, field: field + ".update_transforms")
        switch wire.operation {
        case nil:
            throw .invalidArgument("\(field): a write must update, delete or transform a document")
        case .update(let document):
            path = try database.documentPath(document.name, field: field + ".update.name")
            let fields = try values.fields(document.fields)
            if wire.hasUpdateMask {
                let mask = try wire.updateMask.fieldPaths.enumerated().map { i, text throws(WireError) in
                    try FieldPath.parse(text, field: "\(field).update_mask.field_paths[\(i)]")
                }
                operation = .update(fields, mask: mask)
            } else {
                operation = .update(fields, mask: nil)
            }
        case .delete(let name):
            guard wire.updateTransforms.isEmpty, !wire.hasUpdateMask else {
                throw .invalidArgument("\(field): a delete has no update mask or transforms")
            }
            path = try database.documentPath(name, field: field + ".delete")
            operation = .delete
        case .transform(let transform):
            path = try database.documentPath(transform.document, field: field + ".transform.document")
            operation = .transform
            transforms += try Self.transforms(transform.fieldTransforms, values: values, field: field + ".transform.field_transforms")
        }
        var precondition = FirestoreWrite.Precondition.none
        if wire.hasCurrentDocument {
            switch wire.currentDocument.conditionType {
            case .exists(let exists)?: precondition = .exists(exists)
            case .updateTime(let time)?: precondition = .updateTime(try values.timestamp(time, field: field + ".current_document.update_time"))
            case nil: break
            }
        }
        self.init(path: path, operation: operation, transforms: transforms, precondition: precondition)
    }

    private static func transforms(_ wire: [Google_Firestore_V1_DocumentTransform.FieldTransform], values: WireValues,
                                   field: String) throws(WireError) -> [(field: FieldPath, transform: FieldValue)] {
        var transforms: [(field: FieldPath, transform: FieldValue)] = []
        for (index, transform) in wire.enumerated() {
            let place = "\(field)[\(index)]"
            let path = try FieldPath.parse(transform.fieldPath, field: place + ".field_path")
            let value: FieldValue
            switch transform.transformType {
            case nil:
                throw .invalidArgument("\(place): a field transform needs a transform type")
            case .setToServerValue(.requestTime):
                value = .serverTimestamp()
            case .setToServerValue:
                throw .invalidArgument("\(place).set_to_server_value: the only server value is REQUEST_TIME")
            case .increment(let operand):
                value = try number(operand, values: values, field: place + ".increment", FieldValue.increment, FieldValue.increment)
            case .maximum(let operand):
                value = try number(operand, values: values, field: place + ".maximum", FieldValue.maximum, FieldValue.maximum)
            case .minimum(let operand):
                value = try number(operand, values: values, field: place + ".minimum", FieldValue.minimum, FieldValue.minimum)
            case .appendMissingElements(let array):
                value = .arrayUnion(try array.values.enumerated().map { i, v throws(WireError) in try values.value(v, field: "\(place).append_missing_elements[\(i)]") })
            case .removeAllFromArray(let array):
                value = .arrayRemove(try array.values.enumerated().map { i, v throws(WireError) in try values.value(v, field: "\(place).remove_all_from_array[\(i)]") })
            }
            transforms.append((path, value))
        }
        return transforms
    }

    private static func number(_ wire: Google_Firestore_V1_Value, values: WireValues, field: String,
                               _ integer: (Int64) -> FieldValue, _ double: (Double) -> FieldValue) throws(WireError) -> FieldValue {
        switch try values.value(wire, field: field) {
        case .integer(let i): return integer(i)
        case .double(let d): return double(d)
        case let other: throw .invalidArgument("\(field): the operand must be an integer or a double, got \(other.described)")
        }
    }
}
