import FirestoreProtocol
import SwiftProtobuf
import Foundation

/// How a read is made: in a transaction, starting one, or at a time (a request's
/// `consistency_selector`, whose type each request has its own of).
enum ReadConsistency {
    case transaction(Data)
    case newTransaction(Google_Firestore_V1_TransactionOptions)
    case readTime(Google_Protobuf_Timestamp)

    init(_ selector: Google_Firestore_V1_GetDocumentRequest.OneOf_ConsistencySelector) {
        switch selector {
        case .transaction(let id): self = .transaction(id)
        case .readTime(let time): self = .readTime(time)
        }
    }
    init(_ selector: Google_Firestore_V1_BatchGetDocumentsRequest.OneOf_ConsistencySelector) {
        switch selector {
        case .transaction(let id): self = .transaction(id)
        case .newTransaction(let options): self = .newTransaction(options)
        case .readTime(let time): self = .readTime(time)
        }
    }
    init(_ selector: Google_Firestore_V1_RunQueryRequest.OneOf_ConsistencySelector) {
        switch selector {
        case .transaction(let id): self = .transaction(id)
        case .newTransaction(let options): self = .newTransaction(options)
        case .readTime(let time): self = .readTime(time)
        }
    }
    init(_ selector: Google_Firestore_V1_RunAggregationQueryRequest.OneOf_ConsistencySelector) {
        switch selector {
        case .transaction(let id): self = .transaction(id)
        case .newTransaction(let options): self = .newTransaction(options)
        case .readTime(let time): self = .readTime(time)
        }
    }

    init(_ selector: Google_Firestore_V1_ListDocumentsRequest.OneOf_ConsistencySelector) {
        switch selector {
        case .transaction(let id): self = .transaction(id)
        case .readTime(let time): self = .readTime(time)
        }
    }
    init(_ selector: Google_Firestore_V1_ListCollectionIdsRequest.OneOf_ConsistencySelector) {
        switch selector {
        case .readTime(let time): self = .readTime(time)
        }
    }
    init(_ selector: Google_Firestore_V1_PartitionQueryRequest.OneOf_ConsistencySelector) {
        switch selector {
        case .readTime(let time): self = .readTime(time)
        }
    }
}
