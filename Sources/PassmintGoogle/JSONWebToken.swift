import Passmint

/// A JSON Web Token signed with RS256 (RFC 7519, 7515): `base64url(header).base64url(claims).base64url(signature)`.
enum JSONWebToken {
    static func signed(claims: JSONValue, keyID: String?, signer: RS256Signer) throws(GoogleWalletError) -> String {
        var header: JSONObject = ["alg": "RS256", "typ": "JWT"]
        if let keyID { header["kid"] = .string(keyID) }
        let input =
            Base64URL.encode(JSONWriter.data(.object(header), style: .compact)) + "."
            + Base64URL.encode(JSONWriter.data(claims, style: .compact))
        do throws(PassmintError) {
            return input + "." + Base64URL.encode(try signer.sign(Array(input.utf8)))
        } catch {
            throw GoogleWalletError(.invalidServiceAccount, "cannot sign with the service account's key: \(error.message)")
        }
    }
}
