/// An entry of a 200 response's `errors`, beside data: something X could not include.
public struct PartialError: Sendable, Hashable {
    /// X's title, e.g. "Authorization Error".
    public var title: String
    /// X's detail.
    public var detail: String
    /// What kind of resource is missing (`user`, `media`, `tweet`).
    public var resourceType: String?
    /// Its id.
    public var resourceID: String?
}
