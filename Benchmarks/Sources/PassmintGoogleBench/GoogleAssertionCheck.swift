import BenchSupport
import Foundation

/// Checks a service account's JWT assertion as Google's token endpoint does: RS256, issued by the account's email,
/// for the Wallet scope, addressed to the token endpoint, not expired, and signed by the account's key. The signature
/// is verified by the `openssl` command with the key's public half (a token is asked for once an hour, so this runs
/// once or twice a run).
struct GoogleAssertionCheck: Sendable {
    let clientEmail: String
    let tokenURL: String
    let publicKeyPEM: URL

    /// nil when Google would take the assertion; else why not.
    func problem(_ assertion: String) -> String? {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
            let signature = Self.base64URL(parts[2])
        else { return "the assertion is not a JWT" }
        guard header["alg"] as? String == "RS256" else { return "alg is not RS256" }
        guard claims["iss"] as? String == clientEmail else { return "iss is not \(clientEmail)" }
        guard (claims["scope"] as? String)?.split(separator: " ").contains("https://www.googleapis.com/auth/wallet_object.issuer") == true
        else { return "the scope is not the Wallet issuer scope" }
        guard claims["aud"] as? String == tokenURL else { return "aud is not \(tokenURL)" }
        guard let expires = (claims["exp"] as? NSNumber)?.doubleValue, expires > Date().timeIntervalSince1970 else {
            return "the assertion expired"
        }
        return verified(Data((parts[0] + "." + parts[1]).utf8), signature: signature) ? nil : "the signature does not verify"
    }

    private func verified(_ signed: Data, signature: Data) -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("google-bench-jwt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try signed.write(to: folder.appendingPathComponent("signed"))
            try signature.write(to: folder.appendingPathComponent("signature"))
            let result = try BenchShell.run(
                "openssl",
                [
                    "dgst", "-sha256", "-verify", publicKeyPEM.path, "-signature", folder.appendingPathComponent("signature").path,
                    folder.appendingPathComponent("signed").path,
                ])
            return result.status == 0
        } catch {
            return false
        }
    }

    private static func object(_ part: Substring) -> [String: Any]? {
        base64URL(part).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    private static func base64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
