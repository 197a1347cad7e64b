import Logging
package import Passmint
package import PassmintStore

/// Rewards enrollment: Wallet posts what the user gave when signing up for a personalizable pass. The service stores
/// it (the first sign-up wins), signs the personalization token with the pass certificate (the same PKCS#7 detached
/// signature as the manifest's) and gives the pass its next version, so the next fetch gets the personalized pass
/// (without `personalization.json`); the user's other devices are told in the background.
package struct PersonalizationService: Sendable {
    /// The longest personalization token accepted (Wallet's are far shorter).
    static let maximumTokenLength = 4096

    /// The answer to Wallet's personalize request: the signature of its token, and the pass as now stored.
    package struct Personalized: Sendable {
        /// The DER PKCS#7 detached signature of the personalization token's UTF-8 bytes, made with the pass certificate.
        package var signature: [UInt8]
        package var pass: StoredPass
    }

    let store: any PassStore
    let renderer: PassRenderer
    let publisher: PassPublisher
    let logger: Logger

    /// Stores `info` for the pass and signs `token`. A retry with the same information signs again without another
    /// change; different information for a pass already personalized is a conflict.
    package func personalize(
        passTypeIdentifier: String, serialNumber: String, token: String, info: PersonalizationInfo
    ) async throws -> Personalized {
        guard !token.isEmpty, token.utf8.count <= Self.maximumTokenLength else {
            throw ServiceFailure.badRequest("personalizationToken must be a non-empty string of at most \(Self.maximumTokenLength) bytes")
        }
        let stored = try await record(info, passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        let signature = try renderer.signDetached(Array(token.utf8), passTypeIdentifier: passTypeIdentifier)
        logger.info(
            "pass personalized",
            metadata: [
                "passTypeIdentifier": "\(passTypeIdentifier)", "serialNumber": "\(serialNumber)", "tag": "\(stored.pass.updateTag)",
                "fields": "\(stored.fields)",
            ])
        return Personalized(signature: signature, pass: stored.pass)
    }

    /// Stores `info` with the pass (checked first: it must make a valid pass) and gives it its next version, made from
    /// the version read and made again when another change committed first. The pass as stored, and the fields asked.
    private func record(
        _ info: PersonalizationInfo, passTypeIdentifier: String, serialNumber: String
    ) async throws -> (pass: StoredPass, fields: String) {
        try await DocumentChange.retrying(.pass, serialNumber) {
            let current = try await store.existing(.pass, passTypeIdentifier, serialNumber)
            if let erasedAt = current.erasedAt { throw ServiceFailure.erased(serialNumber, at: erasedAt) }
            let request = try await personalizationRequest(of: current)
            let fields = request.requiredFields.map(\.rawValue).joined(separator: ",")
            let missing = info.missing(request.requiredFields)
            guard missing.isEmpty else {
                let names = missing.map(\.rawValue).joined(separator: ", ")
                throw ServiceFailure.badRequest("requiredPersonalizationInfo lacks \(names), which personalization.json requires")
            }
            let infoJSON = JSONWriter.string(info.json, style: .compact)
            let taken = ServiceFailure.conflict(
                "pass \(serialNumber) is already personalized with other information; the issuer can change its data with PATCH")
            if let previous = current.personalizationJSON {
                guard previous == infoJSON else { throw taken }
                return (current, fields)
            }
            var candidate = current
            candidate.personalizationJSON = infoJSON
            let built = try await renderer.build(candidate)  // refuse information that does not make a valid pass
            // Stale or erased when another change (or sign-up, or an erasure) came first: looked at again.
            let committed = try await store.change(
                passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, .personalize(personalizationJSON: infoJSON),
                basedOn: current.updateTag)
            guard let change = committed else { throw ServiceFailure.notFound }
            guard change.pass.personalizationJSON == infoJSON else { throw taken }
            // The user's other devices (an iPad, …) still hold the sign-up version: tell them, without making Wallet
            // wait for APNs before it gets its signature.
            publisher.publish(change, signed: built.archive)
            return (change.pass, fields)
        }
    }

    private func personalizationRequest(of pass: StoredPass) async throws(ServiceFailure) -> PersonalizationRequest {
        let template = try await renderer.templates.version(of: pass).template  // the version the pass is at
        let request: PersonalizationRequest?
        do {
            request = try template.personalizationRequest()
        } catch {
            throw .unprocessable(renderer.templates.redacted(error.message))
        }
        guard let request else {
            throw .badRequest("pass \(pass.serialNumber) is not personalizable: its template \(pass.template) has no personalization.json")
        }
        return request
    }
}
