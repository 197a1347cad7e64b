/// What an issuer writes into each pass over its template or JSON: the serial number, the web service's
/// authentication token and URL, and whether the pass is voided.
///
/// Batch issuing, lazy issuing and the service all hand their stamp to ``PassBuilder`` in a ``PassInput``, and the
/// builder applies it here and nowhere else, so a pass comes out byte for byte the same whichever of them made it.
public struct PassStamp: Sendable, Equatable {
    /// The pass's `serialNumber`, and the value of `{{serialNumber}}`.
    public var serialNumber: String?
    /// The pass's `authenticationToken`, and the value of `{{authenticationToken}}`; an empty token is none.
    public var authenticationToken: String?
    /// The pass's `webServiceURL`.
    public var webServiceURL: String?
    /// Sets `voided` to true.
    public var voided: Bool

    public init(serialNumber: String? = nil, authenticationToken: String? = nil, webServiceURL: String? = nil, voided: Bool = false) {
        self.serialNumber = serialNumber
        self.authenticationToken = authenticationToken
        self.webServiceURL = webServiceURL
        self.voided = voided
    }

    /// No stamp: the pass is what its template or JSON makes it.
    public static let none = PassStamp()

    /// The token, when there is one.
    private var token: String? { authenticationToken.flatMap { $0.isEmpty ? nil : $0 } }

    /// A template's placeholder values with the stamp's: `{{serialNumber}}` and `{{authenticationToken}}` show what
    /// the pass is stamped with, whatever the data says. This is also the data a service stores for the pass.
    public func stamped(data: JSONObject) -> JSONObject {
        var data = data
        if let serialNumber { data["serialNumber"] = .string(serialNumber) }
        if let token { data["authenticationToken"] = .string(token) }
        return data
    }

    /// Sets the stamp's top-level keys of `pass.json`, whatever the template or JSON says (in place: no copy of a
    /// freshly rendered object).
    func stamp(_ json: inout JSONObject) {
        if let serialNumber { json["serialNumber"] = .string(serialNumber) }
        if let token { json["authenticationToken"] = .string(token) }
        if let webServiceURL { json["webServiceURL"] = .string(webServiceURL) }
        if voided { json["voided"] = true }
    }
}
