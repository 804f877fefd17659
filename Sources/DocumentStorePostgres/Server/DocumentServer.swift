import DocumentStore
import Foundation

/// A database server that holds a store's documents (DocumentStorePostgres), a backend by what
/// it reads and writes as text: paths are slash-separated strings ("books/dune"), a document is
/// the JSON text of its fields in the on-disk encoding (`DocumentText`). The rest of
/// `StorageBackend` (transforms and preconditions through `CommitPlan`, query semantics,
/// snapshots, listening through `ServerChangeFeed`) comes with it (`DocumentServer+Storage`).
/// `description` names the server in messages: its URL without the password.
package protocol DocumentServer: QueryingStorage, VersionedStorage {
    /// The documents found among `paths` (the missing ones are left out).
    func read(_ paths: [String]) throws -> [ServerDocument]
    /// The create and update times of the documents found among `paths`, by path.
    func times(_ paths: [String]) throws -> [String: DocumentTimes]
    /// Every document of the selection that meets its conditions (see `ServerCondition`).
    func read(_ selection: ServerSelection) throws -> [ServerDocument]
    /// The first `page.limit` documents of the page's selection in its order (see `ServerPage`),
    /// from its end for `fromEnd`, in any order.
    func readPage(_ page: ServerPage) throws -> [ServerDocument]
    /// Up to `limit` documents of the selection, in the order of their paths' bytes, from just
    /// after the path `after` (from the start when nil): a large first read in slices that
    /// other calls can come between.
    func readSlice(_ selection: ServerSelection, after: String?, limit: Int) throws -> [ServerDocument]
    /// Starts making, in the background, what serves the page's order, so that the first
    /// `readPage` in it need not wait; nothing where no order needs making.
    func prepareOrder(_ page: ServerPage)
    /// Whether a `readPage` in the page's order is waiting for what serves it to be made.
    func isWaitingForOrder(_ page: ServerPage) -> Bool
    /// How many documents `read(selection)` would read.
    func count(_ selection: ServerSelection) throws -> Int
    /// How many documents `readPage(page)` would read: those of its selection within its
    /// cursors, up to its limit.
    func count(_ page: ServerPage) throws -> Int
    /// The numbers at `fields` in the documents `read(selection)` would read, added up (see
    /// `ServerSums`).
    func sums(_ selection: ServerSelection, fields: [[String]]) throws -> ServerSums
    /// The ids of the documents of `collection`, and of missing ones with documents below them.
    func documentIDs(in collection: String) throws -> [String]
    /// The ids of the collections holding documents directly below `parent` ("" for the root).
    func collectionIDs(under parent: String) throws -> [String]
    /// Runs `body` in one transaction that holds `paths` locked: it gets those of them that
    /// exist, as they are, with their times, and the commit's time (`CommitClock`, taken once
    /// they are locked), and returns what to write (nil text: delete), committed all together,
    /// each written document stamped with that time (a later one only where the document's own
    /// is as late). Retries on serialization failures; an error thrown by `body` rolls back and
    /// is rethrown as it is. Returns the times of the documents written (not those deleted).
    func transact(locking paths: [String], _ body: ([ServerDocument], Timestamp) throws -> [ServerDocument]) throws -> [String: DocumentTimes]
    /// The documents of `scope` as they were before commits after `time` replaced or deleted
    /// them, with their times and those commits' times (see `PastVersion`); nil when the
    /// server keeps none.
    func replacedDocuments(_ scope: VersionScope, after time: Timestamp) throws -> [(document: ServerDocument, replaced: Timestamp)]?
    /// Removes the versions past the window, now and then (called after each commit).
    func pruneVersions()
    /// Calls `changed` with the paths each commit wrote, from any client; with nil when
    /// changes may have been missed (a dropped connection, once listening again), until the
    /// observation is cancelled.
    func observe(_ changed: @escaping @Sendable ([String]?) -> Void) -> ServerObservation
}

/// A document on a server: its path and the JSON text of its fields (nil: deleted).
package struct ServerDocument: Sendable, Equatable {
    package var path: String
    package var json: String?
    /// Read in a commit: the document's create and update times. On a write: the times to
    /// store instead of the server's clock (`shelf export` keeps a document's times); nil:
    /// the server stamps the write.
    package var times: DocumentTimes?

    package init(path: String, json: String?, times: DocumentTimes? = nil) {
        self.path = path
        self.json = json
        self.times = times
    }
}

/// Stops one `DocumentServer.observe`.
package protocol ServerObservation: AnyObject, Sendable {
    func cancel()
    /// Waits until changes are being observed (for at most `timeout` seconds); false if not.
    /// A read that starts after this misses no change: each later commit is announced.
    func waitUntilListening(timeout: TimeInterval) -> Bool
}
