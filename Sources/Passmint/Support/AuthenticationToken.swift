/// Authentication tokens for passes the web service keeps up to date: 128 random bits from OpenSSL, base64url without
/// padding (22 characters). `batch` gives every pass one when it has a `webServiceURL`; the service when the data
/// gives none.
public enum AuthenticationToken {
    /// A fresh token.
    public static func make() -> String { Base64URL.encode(OpenSSL.randomBytes(16)) }
}
