/// An entry of a 200 response's `errors`, beside data: something X could not include.
package struct PartialError: Sendable, Hashable {
    /// X's title, e.g. "Authorization Error".
    package var title: String
    /// X's detail.
    package var detail: String
    /// What kind of resource is missing (`user`, `media`, `tweet`).
    package var resourceType: String?
    /// Its id.
    package var resourceID: String?
}
