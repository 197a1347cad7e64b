package import Foundation
package import Passmint
import PassmintStore

/// Google Wallet fetches a pass's images by URL, so the service serves them, each at an address named by its
/// content (the SHA-1 of its bytes, as in a pass's manifest), under the public URL:
///
/// - `google/images/templates/{template}/{sha1}.png`: an image the template holds, one address for every pass of it
///   (so a class stays the same whichever pass sent it);
/// - `google/images/passes/{passTypeIdentifier}/{serialNumber}/{sha1}.png`: a pass's own image (a member's photo).
///
/// A new image is a new address, so Google never shows a stale copy; an address nobody was given (a pass's own image
/// is known only from its bytes) answers 404. A pass kept at an older version of its template (one a newer version
/// did not fit) names that version's images at template addresses too, and they answer as long as a pass is kept
/// at a version holding them.
package struct GoogleImageService: Sendable {
    let renderer: PassRenderer
    let store: any PassStore
    /// `{public URL}/google/images`.
    let base: String
    /// The template addresses of each template version's images (by the template's name and the version's hash),
    /// made once a version rather than once a pass. A version's files never change: every entry is kept at
    /// generation 0.
    private let templateAddresses = ReadCache<String, [String: URL]>(limit: 256)

    init(renderer: PassRenderer, store: any PassStore, publicURL: String) {
        self.renderer = renderer
        self.store = store
        base = Self.base(publicURL: publicURL)
    }

    /// The address of each image of a pass rendered with `files`, by its path in the pass (`logo@3x.png`).
    func addresses(of pass: StoredPass, files: [PassFile]) async -> @Sendable (String) -> URL? {
        var shared: [String: URL] = [:]
        if let version = try? await renderer.templates.version(of: pass) {
            shared = await templateAddresses.value(for: pass.template + "\u{0}" + version.hash, generation: 0) {
                Self.templateAddresses(base: base, template: pass.template, templateFiles: version.template.files)
            }
        }
        return Self.addresses(
            base: base, shared: shared, passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber, files: files)
    }

    /// The addresses the service serves a pass's images at, by path: `base` is `{public URL}/google/images`; an image
    /// among `templateFiles` (same path and bytes) has the template's address, any other the pass's own.
    package static func addresses(
        base: String, template: String, templateFiles: [PassFile], passTypeIdentifier: String, serialNumber: String, files: [PassFile]
    ) -> @Sendable (String) -> URL? {
        addresses(
            base: base, shared: templateAddresses(base: base, template: template, templateFiles: templateFiles),
            passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber, files: files)
    }

    /// `shared` holds the template's addresses by path and SHA-1 (`templateAddresses`); any other image has the pass's own.
    private static func addresses(
        base: String, shared: [String: URL], passTypeIdentifier: String, serialNumber: String, files: [PassFile]
    ) -> @Sendable (String) -> URL? {
        let own = "\(base)/passes/\(passTypeIdentifier)/\(serialNumber)/"
        var addresses: [String: URL] = [:]
        for file in files where file.path.hasSuffix(".png") {
            addresses[file.path] = shared[file.path + "\u{0}" + file.sha1] ?? URL(string: own + file.sha1 + ".png")
        }
        return { [addresses] in addresses[$0] }
    }

    /// The template address of each of a template's images, by its path and SHA-1 (`logo@3x.png`, NUL, the SHA-1).
    private static func templateAddresses(base: String, template: String, templateFiles: [PassFile]) -> [String: URL] {
        let folder = "\(base)/templates/\(escaped(TemplateCatalog.canonicalName(template)))/"
        var addresses: [String: URL] = [:]
        for file in templateFiles where file.path.hasSuffix(".png") {
            addresses[file.path + "\u{0}" + file.sha1] = URL(string: folder + file.sha1 + ".png")
        }
        return addresses
    }

    /// `{public URL}/google/images`.
    package static func base(publicURL: String) -> String {
        (publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL) + "/google/images"
    }

    /// The PNG a template address names, from the current version of the template or any stored version of it.
    package func templateImage(template name: String, sha1: String) async throws(ServiceFailure) -> [UInt8] {
        for version in await renderer.templates.versions(named: name) {
            if let bytes = Self.png(in: version.files, sha1: sha1) { return bytes }
        }
        throw .notFound
    }

    /// The PNG a pass address names, from the pass as it renders now.
    package func passImage(passTypeIdentifier: String, serialNumber: String, sha1: String) async throws -> [UInt8] {
        let pass = try await store.existing(.pass, passTypeIdentifier, serialNumber)
        guard let bytes = Self.png(in: try await renderer.render(pass).files, sha1: sha1) else { throw ServiceFailure.notFound }
        return bytes
    }

    private static func png(in files: [PassFile], sha1: String) -> [UInt8]? {
        files.first(where: { $0.sha1 == sha1 && $0.path.hasSuffix(".png") })?.bytes
    }

    /// A template's name as a path component.
    private static func escaped(_ name: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
    }
}
