import FirestoreWire
import Foundation

/// One page of a listing of ids (`ListDocuments`, `ListCollectionIds`): the ids in the order of
/// their bytes, after the one a `page_token` names. A token is the page's last id, base64: the
/// next page starts after it even if that id is deleted meanwhile.
struct IDPage {
    let ids: [String]
    /// Empty on the last page.
    let nextPageToken: String

    /// `size` 0 (or less, as the emulator takes it for collection ids): 300, the emulator's default.
    init(of all: [String], token: String, size: Int32) throws(WireError) {
        let size = size <= 0 ? 300 : Int(size)
        var ids = all.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        if !token.isEmpty {
            guard let data = Data(base64Encoded: token), let after = String(data: data, encoding: .utf8) else {
                throw .invalidArgument("page_token: \"\(token)\" is not a token this server gave")
            }
            ids.removeAll { !Array(after.utf8).lexicographicallyPrecedes(Array($0.utf8)) }
        }
        self.ids = Array(ids.prefix(size))
        nextPageToken = ids.count > size ? Data(self.ids.last!.utf8).base64EncodedString() : ""
    }
}
