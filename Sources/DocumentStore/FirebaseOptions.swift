import Foundation

/// Firebase's `FirebaseOptions`, so `FirebaseApp.configure(options:)` code compiles. Only
/// `projectID` means something here: the project a Firestore server is asked for (`shelf serve`
/// takes any; Google's emulator keeps each project's data apart).
public final class FirebaseOptions: NSObject, NSCopying, @unchecked Sendable {
    public var googleAppID: String
    public var gcmSenderID: String
    public var projectID: String?
    public var apiKey: String?

    public init(googleAppID: String, gcmSenderID: String) {
        self.googleAppID = googleAppID
        self.gcmSenderID = gcmSenderID
    }

    /// The project when none is named: `GCLOUD_PROJECT`, as Google's tools read it, or else a
    /// demo project (Firebase's emulators treat `demo-` projects as local only).
    public static let defaultProjectID = "demo-shelf"

    /// Firebase reads its options from `GoogleService-Info.plist`; here they come from the
    /// environment: the project is `GCLOUD_PROJECT`'s, or `defaultProjectID`.
    public class func defaultOptions() -> FirebaseOptions? {
        fromEnvironment()
    }

    static func fromEnvironment() -> FirebaseOptions {
        let options = FirebaseOptions(googleAppID: "", gcmSenderID: "")
        let project = ProcessInfo.processInfo.environment["GCLOUD_PROJECT"] ?? ""
        options.projectID = project.isEmpty ? defaultProjectID : project
        return options
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = FirebaseOptions(googleAppID: googleAppID, gcmSenderID: gcmSenderID)
        copy.projectID = projectID
        copy.apiKey = apiKey
        return copy
    }
}
