/// Where an `AggregateQuery` reads, as Firebase's `AggregateSource`. Firebase has only the
/// server, and here the files are the server: `.server` reads them.
public enum AggregateSource: UInt, Sendable {
    case server
}
