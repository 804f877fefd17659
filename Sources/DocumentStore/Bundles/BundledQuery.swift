import Foundation

/// A bundle's named query (`bundledQuery`: a parent, a `structuredQuery` in the REST API's
/// JSON, and a `limitType`) made into a `Query` through the public query API, so it is
/// checked as every query is.
struct BundledQuery {
    let json: RESTJSON

    func query(_ bundled: [String: JSONValue], _ field: String) throws -> Query {
        let parent = try json.path(ofName: bundled["parent"], field + ".parent")
        let structured = try json.object(bundled["structuredQuery"], field + ".structuredQuery")
        let at = field + ".structuredQuery"
        for unsupported in ["select", "offset"] where structured[unsupported] != nil {
            throw json.failure(at, "queries with \"\(unsupported)\" are not supported in bundles")
        }
        guard case .array(let from)? = structured["from"], from.count == 1 else {
            throw json.failure(at + ".from", "expected one collection")
        }
        let collection = try json.object(from[0], at + ".from[0]")
        let collectionID = try json.string(collection["collectionId"], at + ".from[0].collectionId")
        var query: Query
        if case .bool(true)? = collection["allDescendants"] {
            guard parent.segments.isEmpty else { throw json.failure(at + ".from[0]", "a collection group under a document is not supported") }
            query = json.store.collectionGroup(collectionID)
        } else {
            query = json.store.collection(parent.appending(collectionID).description)
        }
        if let filter = structured["where"] { query = query.whereFilter(try self.filter(filter, at + ".where")) }
        if case .array(let orders)? = structured["orderBy"] {
            for (index, order) in orders.enumerated() {
                let orderField = "\(at).orderBy[\(index)]"
                let object = try json.object(order, orderField)
                let path = try fieldPath(object["field"], orderField + ".field")
                let direction = object["direction"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "ASCENDING"
                guard direction == "ASCENDING" || direction == "DESCENDING" else {
                    throw json.failure(orderField + ".direction", "expected ASCENDING or DESCENDING, found \(direction)")
                }
                query = query.order(by: path, descending: direction == "DESCENDING")
            }
        }
        if let start = structured["startAt"] {
            let (values, before) = try cursor(start, at + ".startAt")
            query = before ? query.start(at: values) : query.start(after: values)
        }
        if let end = structured["endAt"] {
            let (values, before) = try cursor(end, at + ".endAt")
            query = before ? query.end(before: values) : query.end(at: values)
        }
        if let limit = structured["limit"] {
            let count = try json.integer(limit.objectValue?["value"] ?? limit, at + ".limit")
            let type = bundled["limitType"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "FIRST"
            guard type == "FIRST" || type == "LAST" else { throw json.failure(field + ".limitType", "expected FIRST or LAST, found \(type)") }
            query = type == "LAST" ? query.limit(toLast: Int(count)) : query.limit(to: Int(count))
        }
        return query
    }

    private func filter(_ value: JSONValue, _ field: String) throws -> Filter {
        let object = try json.object(value, field)
        if let composite = object["compositeFilter"] {
            let parts = try json.object(composite, field + ".compositeFilter")
            guard case .array(let items)? = parts["filters"] else { throw json.failure(field + ".compositeFilter.filters", "expected an array") }
            let filters = try items.enumerated().map { try filter($1, "\(field).compositeFilter.filters[\($0)]") }
            switch try json.string(parts["op"], field + ".compositeFilter.op") {
            case "AND": return .andFilter(filters)
            case "OR": return .orFilter(filters)
            case let op: throw json.failure(field + ".compositeFilter.op", "expected AND or OR, found \(op)")
            }
        }
        if let unary = object["unaryFilter"] {
            let parts = try json.object(unary, field + ".unaryFilter")
            let path = try fieldPath(parts["field"], field + ".unaryFilter.field")
            let name = try json.string(parts["op"], field + ".unaryFilter.op")
            guard let op = UnaryFilterOperator(protocolName: name) else {
                throw json.failure(field + ".unaryFilter.op", "expected IS_NAN, IS_NULL, IS_NOT_NAN or IS_NOT_NULL, found \(name)")
            }
            return .make(path, op.fieldFilter.op, op.fieldFilter.value)
        }
        guard let fieldFilter = object["fieldFilter"] else {
            throw json.failure(field, "expected a compositeFilter, fieldFilter or unaryFilter")
        }
        let parts = try json.object(fieldFilter, field + ".fieldFilter")
        let path = try fieldPath(parts["field"], field + ".fieldFilter.field")
        let value = try json.value(parts["value"] ?? .null, field + ".fieldFilter.value").anyValue
        let name = try json.string(parts["op"], field + ".fieldFilter.op")
        guard let op = FilterOperator(protocolName: name) else { throw json.failure(field + ".fieldFilter.op", "\(name) is not an operator Firestore has") }
        return .make(path, op, op.takesArray ? (value as? [Any]) ?? [] : value)
    }

    private func cursor(_ value: JSONValue, _ field: String) throws -> (values: [Any], before: Bool) {
        let object = try json.object(value, field)
        guard case .array(let items)? = object["values"] else { throw json.failure(field + ".values", "expected an array") }
        let values = try items.enumerated().map { try json.value($1, "\(field).values[\($0)]").anyValue }
        if case .bool(true)? = object["before"] { return (values, true) }
        return (values, false)
    }

    /// A field reference: `{"fieldPath": "a.`b.c`"}`, in Firestore's server format.
    private func fieldPath(_ value: JSONValue?, _ field: String) throws -> FieldPath {
        let text = try json.string(try json.object(value, field)["fieldPath"], field + ".fieldPath")
        do { return try FieldPath.parse(serverFormat: text) } catch { throw json.failure(field, error.description) }
    }
}
