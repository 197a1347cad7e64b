import Foundation
import Passmint
package import PassmintGoogle
package import PassmintStore
import Synchronization

/// Puts the service's passes in Google Wallet beside Apple Wallet: a pass's "Add to Google Wallet" link, with its
/// class (one per template version) and its object sent to Google the first time a link to it is made. What is sent
/// is the pass as the service renders it (its template, data and stamp), mapped by `GoogleMapping`.
package final class GoogleWalletService: Sendable {
    let renderer: PassRenderer
    let store: any PassStore
    let client: GoogleWalletClient
    let http: GoogleHTTP
    let saveLink: GoogleSaveLink
    let mapping: GoogleMapping
    /// Where Google fetches the passes' images (the service serves them).
    package let images: GoogleImageService
    /// The web origin of the public URL, allowed to show the save button.
    let origins: [String]
    /// The SHA-256 of what was last sent for each class and object id: one is sent again only when it would differ
    /// (a new template version for a class, a change for an object). Emptied past ``memoLimit`` ids, which costs only
    /// a read at Google for each id sent again.
    private let sent = Mutex<[String: String]>([:])
    static let memoLimit = 100_000

    init(
        configuration: GoogleConfiguration, publicURL: String, renderer: PassRenderer, store: any PassStore,
        now: @escaping @Sendable () -> Date,
        retry: GoogleRetry = GoogleRetry()
    ) {
        let http = GoogleHTTP()
        self.renderer = renderer
        self.store = store
        self.http = http
        client = GoogleWalletClient(
            apiURL: configuration.apiURL, tokens: GoogleAccessTokens(key: configuration.key, http: http, now: now), http: http,
            retry: retry, now: now)
        saveLink = GoogleSaveLink(key: configuration.key, now: now)
        var options = GoogleMapping.Options(issuerID: configuration.issuerID)
        if configuration.callbackKeysFile != nil { options.callbackURL = GoogleCallbackService.url(publicURL: publicURL) }
        mapping = GoogleMapping(options: options)
        images = GoogleImageService(renderer: renderer, store: store, publicURL: publicURL)
        origins = URL(string: publicURL).flatMap(Self.origin).map { [$0] } ?? []
    }

    /// The pass's "Add to Google Wallet" link (`https://pay.google.com/gp/v/save/…`). Its class is inserted or patched
    /// first when this service has not sent the class its template makes now, and its object when it has not sent
    /// the object the pass makes now, so the link saves what the pass shows. From then on every change of the pass
    /// owes its object a patch (``GoogleUpdateQueue``).
    package func saveURL(for pass: StoredPass) async throws(GoogleWalletError) -> String {
        let (mapped, sentObject) = try await sendMapped(pass)
        if sentObject != nil {
            do {
                try await store.noteGoogleObject(
                    passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, objectID: mapped.objectID,
                    updateTag: pass.updateTag)
            } catch {
                throw GoogleWalletError(.unavailable, "the store cannot note the Google object of \(pass.serialNumber): \(error)")
            }
        }
        return try saveLink.link(objectID: mapped.objectID, style: mapped.style, origins: origins)
    }

    /// Sends the pass's class and object as the service renders the pass now, each only when it differs from what
    /// was last sent (what the Google update queue does for a change); what became of the object (`unchanged` when it
    /// was what was last sent).
    @discardableResult
    package func send(_ pass: StoredPass) async throws(GoogleWalletError) -> GoogleWalletClient.Outcome {
        try await sendMapped(pass).1 ?? .unchanged
    }

    /// The pass mapped and sent; what became of its object, nil when it was what was last sent (and so not sent).
    /// One class serves every version of a template, so a pass kept at an older version never patches it back to that
    /// version: its class is sent only when Google has none yet.
    private func sendMapped(_ pass: StoredPass) async throws(GoogleWalletError) -> (GoogleMapping.Mapped, GoogleWalletClient.Outcome?) {
        let mapped = try await map(pass)
        if renderer.templates.isCurrent(pass) {
            try await send(mapped.classBody, id: mapped.classID, collection: mapped.style.classCollection)
        } else if sent.withLock({ $0[mapped.classID] }) == nil,
            try await client.get(collection: mapped.style.classCollection, id: mapped.classID) == nil
        {
            _ = try await client.upsert(mapped.classBody, collection: mapped.style.classCollection)
        }
        let sent = try await send(mapped.objectBody, id: mapped.objectID, collection: mapped.style.objectCollection)
        return (mapped, sent)
    }

    /// Closes the connections to Google (at shutdown).
    package func shutdown() async { try? await http.shutdown() }

    /// The pass as the service renders it, mapped to a Google class and object, its images at the service's addresses
    /// (``GoogleImageService``).
    func map(_ pass: StoredPass) async throws(GoogleWalletError) -> GoogleMapping.Mapped {
        let rendered: (passJSON: JSONObject, files: [PassFile])
        do {
            rendered = try await renderer.render(pass)  // checked when its change committed: not linted again
        } catch {
            throw GoogleWalletError(
                .refused, "pass \(pass.serialNumber) cannot be rendered for Google Wallet: \(error.message ?? "it cannot be built")")
        }
        let files = rendered.files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }
        var options = mapping.options
        options.imageURL = await images.addresses(of: pass, files: rendered.files)
        return try GoogleMapping(options: options).map(pass: rendered.passJSON, files: files, templateName: pass.template)
    }

    /// Upserts `body` unless it is what was last sent for `id`; what Google did, nil when it was not sent.
    @discardableResult
    private func send(_ body: JSONObject, id: String, collection: String) async throws(GoogleWalletError) -> GoogleWalletClient.Outcome? {
        let digest = Digest.sha256Hex(Array(JSONWriter.string(.object(body), style: .compact).utf8))
        if sent.withLock({ $0[id] }) == digest { return nil }
        let outcome = try await client.upsert(body, collection: collection)
        sent.withLock { memo in
            if memo.count >= Self.memoLimit { memo.removeAll(keepingCapacity: true) }
            memo[id] = digest
        }
        return outcome
    }

    /// `https://passes.example.com` for `https://passes.example.com/wallet`.
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
