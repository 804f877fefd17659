import DocumentStore
import Foundation
import PostgresNIO

/// A store's connections for reading and writing: up to `size` of them, opened as calls need
/// them and kept open for the next, so calls from several threads run at once (a long read
/// no longer holds up a write) and a call waits only when all are busy. A connection that
/// drops is discarded and another opened on the next call.
final class PostgresConnectionPool: @unchecked Sendable {
    let size: Int
    private let address: PostgresAddress
    private let logger: Logger
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []  // under `condition`
    private var opened = 0                       // made and not yet discarded, under `condition`
    private var isClosed = false                 // under `condition`

    init(address: PostgresAddress, logger: Logger, size: Int) {
        self.address = address
        self.logger = logger
        self.size = max(1, size)
    }

    /// An open connection of the pool's for the caller alone: an idle one, a new one while
    /// there are fewer than `size`, or the first one handed back.
    func take() throws -> PostgresConnection {
        condition.lock()
        while true {
            if isClosed {
                condition.unlock()
                throw FirestoreErrorCode(.failedPrecondition, saying: "the store at \(address.description) was closed")
            }
            if let connection = idle.popLast() {
                if connection.isClosed {
                    opened -= 1
                    connection.close().whenComplete { _ in }  // PostgresNIO wants every connection closed
                    continue
                }
                condition.unlock()
                return connection
            }
            if opened < size { break }
            condition.wait()
        }
        opened += 1
        condition.unlock()
        do {
            return try address.connect(logger: logger)
        } catch {
            condition.withLock { opened -= 1 }
            condition.signal()
            throw error
        }
    }

    /// Opens one more connection in the background, `prepare`s it, and keeps it idle, unless
    /// the pool has as many as it may: the first call made while another runs then need not
    /// wait for a connection to open (a few milliseconds to connect and authenticate) nor for
    /// the server's first look at the tables (`prepare`). A connection that fails is let go.
    func openSpare(prepare: @escaping @Sendable (PostgresConnection) throws -> Void) {
        let opening = condition.withLock {
            guard !isClosed, opened < size else { return false }
            opened += 1
            return true
        }
        guard opening else { return }
        let (address, logger) = (address, logger)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            guard let connection = try? address.connect(logger: logger) else {
                condition.withLock { opened -= 1 }
                return condition.signal()
            }
            do {
                try prepare(connection)
                give(connection)
            } catch {
                discard(connection)
            }
        }
    }

    /// The connections made or being made, and not yet discarded: a spare counts as soon as
    /// it is decided on, so a test sees at once whether one is coming.
    var openedCount: Int { condition.withLock { opened } }

    /// Hands a connection back for the next call (closed instead when the pool is).
    func give(_ connection: PostgresConnection) {
        condition.lock()
        let keep = !isClosed && !connection.isClosed
        if keep { idle.append(connection) } else { opened -= 1 }
        condition.unlock()
        condition.signal()
        if !keep { try? connection.close().wait() }
    }

    /// Closes a connection that failed, so the next call opens another.
    func discard(_ connection: PostgresConnection) {
        condition.withLock { opened -= 1 }
        condition.signal()
        try? connection.close().wait()
    }

    /// Closes the idle connections now and the busy ones as they are handed back; calls
    /// after this fail.
    func close() {
        condition.lock()
        isClosed = true
        let connections = idle
        opened -= idle.count
        idle = []
        condition.unlock()
        condition.broadcast()
        for connection in connections { try? connection.close().wait() }
    }
}
