import Foundation
import Passmint
import PassmintBatch
import PassmintGoogle
import PassmintServer
import Synchronization

/// The `googleSaveURL` of each pass of a batch (`--google`): the service's link, which sends the pass to Google when
/// first followed (``service``), or Google's own link once the batch has inserted the class and object itself
/// (``insert``).
final class BatchGoogleLinks: Sendable {
    /// What inserting needs: the account's client, the mapping and the template the passes are made of.
    struct Inserting: Sendable {
        let template: PassTemplate
        let templateName: String
        let mapping: GoogleMapping.Options
        let client: GoogleWalletClient
        let http: GoogleHTTP
        let saveLink: GoogleSaveLink
        let origins: [String]
        /// `{public URL}/google/images`, where the service serves the images; nil without a public URL.
        let imageBase: String?
    }

    private let service: PassLinks?
    private let inserting: Inserting?
    /// The sending of each class body (its id and SHA-256): the rows being made at once wait for one sending, so a
    /// class is sent once per run (again after a failure).
    private let classes = Mutex<[String: Task<Void, any Error>]>([:])

    init(service: PassLinks) {
        self.service = service
        inserting = nil
    }

    init(inserting: Inserting) {
        service = nil
        self.inserting = inserting
    }

    /// The pass's link; with inserting, after its class and object are inserted or patched, unless `send` is false
    /// (the pass changed at the service, which patches Google's object itself).
    func link(_ issued: BatchRunner.IssuedPass, send: Bool = true) async throws -> String {
        if let service { return service.links(passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber).googleSave }
        guard let inserting else { return "" }
        let mapped = try map(issued, inserting)
        if send {
            try await sendClass(mapped, inserting.client)
            _ = try await inserting.client.upsertObject(mapped.objectBody, style: mapped.style)
        }
        return try inserting.saveLink.link(objectID: mapped.objectID, style: mapped.style, origins: inserting.origins)
    }

    private func sendClass(_ mapped: GoogleMapping.Mapped, _ client: GoogleWalletClient) async throws {
        let key = mapped.classID + "\u{0}" + Digest.sha256Hex(Array(JSONWriter.string(.object(mapped.classBody), style: .compact).utf8))
        let sending = classes.withLock { classes in
            if let running = classes[key] { return running }
            let task = Task { _ = try await client.upsertClass(mapped.classBody, style: mapped.style) }
            classes[key] = task
            return task
        }
        do {
            try await sending.value
        } catch {
            classes.withLock { if $0[key] == sending { $0[key] = nil } }
            throw error
        }
    }

    /// The row's pass (its template filled with its values, its own images over the template's) mapped for Google.
    private func map(_ issued: BatchRunner.IssuedPass, _ inserting: Inserting) throws -> GoogleMapping.Mapped {
        var pass = try inserting.template.render(data: issued.data)
        pass["serialNumber"] = .string(issued.serialNumber)
        pass["passTypeIdentifier"] = .string(issued.passTypeIdentifier)
        let ownSlots = Set(issued.images.files.map { Self.slot(of: $0.path) })
        let files =
            try inserting.template.renderFiles(data: issued.data).filter { !ownSlots.contains(Self.slot(of: $0.path)) }
            + issued.images.files
        var options = inserting.mapping
        if let base = inserting.imageBase {
            options.imageURL = GoogleImageService.addresses(
                base: base, template: inserting.templateName, templateFiles: inserting.template.files,
                passTypeIdentifier: issued.passTypeIdentifier, serialNumber: issued.serialNumber, files: files)
        }
        return try GoogleMapping(options: options).map(
            pass: pass, files: files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, templateName: inserting.templateName)
    }

    /// `thumbnail` for `thumbnail@2x.png`.
    private static func slot(of path: String) -> String {
        String(path.prefix { $0 != "@" && $0 != "." })
    }

    /// Closes the connections to Google.
    func shutdown() async { try? await inserting?.http.shutdown() }
}
