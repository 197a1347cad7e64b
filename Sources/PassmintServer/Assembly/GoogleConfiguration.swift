public import Foundation
public import PassmintGoogle

/// The Google Wallet account the service issues for (`--google-service-account` and `--google-issuer-id`, both or
/// neither): its key is read and checked at start, so a bad key file stops the service before it listens.
public struct GoogleConfiguration: Sendable {
    /// The service account's key, which signs token assertions and save links.
    public var key: ServiceAccountKey
    /// The issuer id from Google Pay & Wallet console (digits).
    public var issuerID: String
    /// The Wallet API's base URL (Google's, a stand-in or staging).
    public var apiURL: URL
    /// The file of Google's callback signing keys (`--google-callback-keys`): with it, classes carry a callback URL
    /// and callbacks are verified and recorded (``GoogleCallbackService``); without it, neither.
    public var callbackKeysFile: String?

    public init(key: ServiceAccountKey, issuerID: String, apiURL: URL = GoogleWalletClient.production, callbackKeysFile: String? = nil) {
        self.key = key
        self.issuerID = issuerID
        self.apiURL = apiURL
        self.callbackKeysFile = callbackKeysFile
    }

    /// Reads the Google settings: nil when neither the key file nor the issuer id is given; refused when only one is,
    /// when the issuer id is not a number, or when the key file is not a service account key.
    static func read(_ settings: SettingSources) throws(ConfigurationError) -> GoogleConfiguration? {
        let declared = ServeSettings.declared
        let keyFile = try settings.text(declared.googleServiceAccount.declaration)
        let issuer = try settings.text(declared.googleIssuerID.declaration)
        let apiURL = try settings.value(declared.googleAPIURL) ?? GoogleWalletClient.production
        let callbackKeys = try settings.text(declared.googleCallbackKeys.declaration)
        if let callbackKeys {
            do throws(GoogleWalletError) {
                _ = try GoogleSigningKeys(contentsOf: callbackKeys.text)
            } catch {
                throw ConfigurationError("setting google-callback-keys, from \(callbackKeys.origin): \(error.message)")
            }
        }
        switch (keyFile, issuer) {
        case (nil, nil):
            if let callbackKeys {
                throw ConfigurationError(
                    "\(callbackKeys.origin) names Google's callback keys but no Google account: give google-service-account and "
                        + "google-issuer-id too, or leave google-callback-keys out")
            }
            return nil
        case (let given?, nil):
            let missing = declared.googleIssuerID.declaration
            throw ConfigurationError(
                "\(given.origin) names a Google service account but no issuer id: give \(missing.flag) (or \(missing.variable)) too, "
                    + "with the issuer id from Google Pay & Wallet console, or leave both out to issue for Apple Wallet only")
        case (nil, let given?):
            let missing = declared.googleServiceAccount.declaration
            throw ConfigurationError(
                "\(given.origin) names a Google issuer id but no service account: give \(missing.flag) (or \(missing.variable)) too, "
                    + "with the account's JSON key file, or leave both out to issue for Apple Wallet only")
        case (let file?, let id?):
            do throws(GoogleWalletError) {
                try GoogleWalletIdentifier.checkIssuer(id.text)
            } catch {
                throw ConfigurationError("setting google-issuer-id, from \(id.origin): \(error.message)")
            }
            do throws(GoogleWalletError) {
                let key = try ServiceAccountKey(contentsOf: file.text)
                return GoogleConfiguration(key: key, issuerID: id.text, apiURL: apiURL, callbackKeysFile: callbackKeys?.text)
            } catch {
                throw ConfigurationError("setting google-service-account, from \(file.origin): \(error.message)")
            }
        }
    }
}
