import Dispatch

/// Where the client's gRPC work runs: Dispatch threads rather than Swift's few cooperative
/// ones, because the store's API is synchronous and its callers block a thread until an
/// answer comes; a caller blocking a cooperative thread must not stop the answer from coming.
final class ClientExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ClientExecutor()
    private let queue = DispatchQueue(label: "DocumentStoreRemote.client", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
