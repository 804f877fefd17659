/// `import FirebaseFirestore` brings Foundation with it (the SDK's headers import it, and its
/// Swift module re-exports them), so Firebase code uses `URL`, `Date`, `NSError`, `NSNull` or
/// `InputStream` with no import of its own; `import DocumentStore` does the same.
@_exported import Foundation
