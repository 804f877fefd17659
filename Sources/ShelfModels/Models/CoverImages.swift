import Foundation

/// A book's cover in three sizes.
public struct CoverImages: Codable, Equatable, Sendable {
    public var small: URL
    public var medium: URL
    public var large: URL

    public init(small: URL, medium: URL, large: URL) {
        self.small = small
        self.medium = medium
        self.large = large
    }
}
