import Foundation
import Glibc

/// A TCP socket bound and listening on `--host`/`--port`, made before anything else (the data
/// folder, the store), so that a busy port is refused with one message and leaves nothing
/// behind; the server then takes it over. Holding it closes the gap between a check and the
/// bind in which another program could take the port.
public struct ListeningSocket: Sendable {
    /// Owned by whoever serves on it next (gRPC closes it when the server stops).
    let descriptor: Int32
    /// The address as a client writes it (`FIRESTORE_EMULATOR_HOST`): the host as given, an
    /// IPv6 one in brackets, and the port bound (the free one taken for port 0).
    public let address: String
    /// The numeric address a host name was bound as (`127.0.0.1` for `localhost`); nil when
    /// the host was one already.
    public let resolved: String?

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// Binds `host` (an IPv4 or IPv6 address, or a name such as `localhost`) at `port` (0: any
    /// free port). A name is bound at its first IPv4 address, as Google's emulator binds it,
    /// or else (no IPv4 here) its first other address.
    public static func bind(host given: String, port: Int) throws -> ListeningSocket {
        // "[::1]" as written in a URL is "::1".
        let host = given.hasPrefix("[") && given.hasSuffix("]") ? String(given.dropFirst().dropLast()) : given
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw Problem(description: "--host \(given): no such address or host name (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(list) }
        var candidates: [UnsafeMutablePointer<addrinfo>] = []
        for entry in sequence(first: list, next: { $0.pointee.ai_next }) { candidates.append(entry) }
        candidates.sort { $0.pointee.ai_family == AF_INET && $1.pointee.ai_family != AF_INET }
        var failure = EINVAL
        var failedAt = host
        for entry in candidates {
            let info = entry.pointee
            let numeric = Self.numericHost(info.ai_addr, info.ai_addrlen)
            let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
            guard fd >= 0 else { (failure, failedAt) = (errno, numeric); continue }
            // As gRPC sets it: a port left in TIME_WAIT by a server just stopped is taken again.
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            guard Glibc.bind(fd, info.ai_addr, info.ai_addrlen) == 0, listen(fd, SOMAXCONN) == 0 else {
                (failure, failedAt) = (errno, numeric)
                close(fd)
                // Another address only when this machine cannot have this one: a busy port
                // there must not put the server where its clients will not look.
                guard failure == EAFNOSUPPORT || failure == EADDRNOTAVAIL else { break }
                continue
            }
            let bound = Self.boundPort(fd) ?? port
            let shown = host.contains(":") ? "[\(host)]" : host
            return ListeningSocket(descriptor: fd, address: "\(shown):\(bound)", resolved: numeric == host ? nil : numeric)
        }
        throw Problem(description: Self.why(failure, host: given, at: failedAt, port: port))
    }

    /// A bind's failure in plain words, naming the port and the host.
    private static func why(_ code: Int32, host: String, at address: String, port: Int) -> String {
        let place = "port \(port) on \(host)" + (address == host ? "" : " (\(address))")
        switch code {
        case EADDRINUSE:
            return "\(place) is already in use (by another server, perhaps an emulator or another shelf serve): stop it, or give --port another port (0 takes any free one)"
        case EACCES:
            return "cannot listen on \(place): permission denied (ports below 1024 need root); give --port another port"
        case EADDRNOTAVAIL:
            return "cannot listen on \(place): \(address) is not an address of this machine; give --host one of its addresses, such as 127.0.0.1"
        default:
            return "cannot listen on \(place): \(String(cString: strerror(code)))"
        }
    }

    private static func numericHost(_ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> String {
        var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { return "?" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard found else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer -> Int? in
            switch family {
            case AF_INET: return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            case AF_INET6: return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            default: return nil
            }
        }
    }
}
