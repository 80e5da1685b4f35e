package import Foundation

/// A post's author, from `includes.users`.
package struct User: Sendable, Hashable, Codable {
    /// The user id (decimal digits).
    package var id: String
    /// The display name.
    package var name: String
    /// The handle without `@` (`[A-Za-z0-9_]{1,15}`).
    package var username: String
    /// The avatar URL as X gives it (the 48×48 `_normal` rendition).
    package var profileImageURL: URL?

    /// Creates a user.
    package init(id: String, name: String, username: String, profileImageURL: URL? = nil) {
        self.id = id
        self.name = name
        self.username = username
        self.profileImageURL = profileImageURL
    }

    /// Whether `text` is a valid X username.
    package static func isValidUsername(_ text: String) -> Bool {
        (1...15).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }
}
