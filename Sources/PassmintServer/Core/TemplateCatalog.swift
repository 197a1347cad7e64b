import Foundation
import HTTPTypes
package import Passmint
package import PassmintStore
import Synchronization

/// The templates the service issues from, by name (`Loyalty` → `<folder>/Loyalty.pass`; `Loyalty.pass` names the same
/// template), and every version of them passes are rendered from. A version is immutable and known by its content hash
/// (``TemplateVersionJSON/hash(_:)``): it is stored once (``TemplateVersionStore``), and a pass renders from the version
/// its row names (``StoredPass/templateVersion``), loaded from the store on first use and kept in memory, never from
/// what the folder holds now. The folder is read for the current version of each template (the one new passes are
/// issued from) at start, and for a publish's candidate.
///
/// It holds the order templates too (`Shipment` → `<orderFolder>/Shipment.order`), read from their folder once and
/// kept: an order renders from what its template's folder held when first used (orders have no stored versions).
package final class TemplateCatalog: Sendable {
    /// A template version: its content hash and the template.
    package struct Version: Sendable {
        package let hash: String
        package let template: PassTemplate

        init(_ template: PassTemplate) {
            hash = TemplateVersionJSON.hash(template)
            self.template = template
        }
    }

    /// The folder holding the `<Name>.pass/` templates.
    package let folder: String
    /// Where versions are kept by hash; nil: in memory only (a catalog outside the service).
    let store: (any TemplateVersionStore)?
    /// The version new passes of each template are issued from, by name.
    private let current = Mutex<[String: Version]>([:])
    /// Every version loaded, by hash; the personalized variant of one under `<hash>\0personalized`.
    private let versions = Mutex<[String: PassTemplate]>([:])
    /// The hashes stored in ``store`` by this catalog.
    private let stored = Mutex<Set<String>>([])
    /// The folder holding the `<Name>.order/` templates, and those read so far by name.
    let orderFolder: String
    private let orders = Mutex<[String: OrderTemplate]>([:])

    package init(folder: String, orderFolder: String? = nil, store: (any TemplateVersionStore)? = nil) {
        self.folder = folder
        self.orderFolder = orderFolder ?? folder
        self.store = store
    }

    /// The order template `name` (`Shipment` or `Shipment.order`); 404 when its folder has none, 422 when it does
    /// not load.
    func order(named name: String) throws(ServiceFailure) -> OrderTemplate {
        let base = Self.orderName(name)
        let allowed = base.utf8.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || ($0 < 128 && isalnum(Int32($0)) != 0) }
        guard !base.isEmpty, base.utf8.count <= 128, allowed else {
            throw .badRequest("template must name an order template folder (letters, digits, - and _), not \"\(name)\"")
        }
        if let template = orders.withLock({ $0[base] }) { return template }
        let path = orderFolder + "/" + base + ".order"
        guard FileManager.default.fileExists(atPath: path) else {
            throw ServiceFailure(.notFound, "there is no order template \(base).order in the order templates folder")
        }
        do {
            let template = try OrderTemplate(folder: path)
            orders.withLock { $0[base] = template }
            return template
        } catch {
            throw .unprocessable("order template \(base): " + error.message.replacingOccurrences(of: orderFolder + "/", with: ""))
        }
    }

    /// The name an order template is known by: without `.order` (an order's row records it with `.order`, which no
    /// pass template has, so that nothing that walks a pass template's passes meets an order).
    static func orderName(_ name: String) -> String { name.hasSuffix(".order") ? String(name.dropLast(".order".count)) : name }

    /// The name passes and jobs know a template by: without `.pass`.
    package static func canonicalName(_ name: String) -> String {
        name.hasSuffix(".pass") && name.count > 5 ? String(name.dropLast(5)) : name
    }

    /// The current version of a template by name: the one new passes are issued from (loaded from the folder on first
    /// use, when the service did not load it at start).
    package func template(named given: String) throws(ServiceFailure) -> PassTemplate { try currentVersion(named: given).template }

    /// The current version of a template, with its hash.
    func currentVersion(named given: String) throws(ServiceFailure) -> Version {
        let name = Self.canonicalName(given)
        if let known = current.withLock({ $0[name] }) { return known }
        let loaded = Version(try candidate(named: name))
        let version = current.withLock { current in
            if let raced = current[name] { return raced }
            current[name] = loaded
            return loaded
        }
        versions.withLock { $0[version.hash] = $0[version.hash] ?? version.template }
        return version
    }

    /// The current version of a template, stored (``TemplateVersionStore``) before it is returned: what a new pass
    /// records it was issued from.
    func version(named name: String) async throws -> Version {
        let version = try currentVersion(named: name)
        try await store(version, named: name)
        return version
    }

    /// Stores `template` as a version of `name` (once per hash); its version.
    @discardableResult
    func store(_ template: PassTemplate, named name: String) async throws -> Version {
        let version = Version(template)
        versions.withLock { $0[version.hash] = $0[version.hash] ?? template }
        try await store(version, named: name)
        return version
    }

    private func store(_ version: Version, named name: String) async throws {
        guard let store, !stored.withLock({ $0.contains(version.hash) }) else { return }
        try await store.storeTemplateVersion(
            hash: version.hash, name: Self.canonicalName(name), content: TemplateVersionJSON.content(version.template))
        stored.withLock { _ = $0.insert(version.hash) }
    }

    /// At start: each template's folder, as it is now, is stored as a version and becomes the current one (passes issued
    /// from now on use it; passes issued before keep the version they name until a publish moves them). Passes stored
    /// before versions were recorded are given it. A template that does not load is left out (listed with its problem).
    /// The number of passes given a version, by template.
    package func start() async throws -> [String: Int] {
        var adopted: [String: Int] = [:]
        for name in names {
            guard let loaded = try? candidate(named: name) else { continue }
            let version = try await store(loaded, named: name)
            current.withLock { $0[name] = version }
            adopted[name] = try await store?.adoptTemplateVersion(hash: version.hash, name: name) ?? 0
        }
        return adopted
    }

    /// The template as its folder holds it now, loaded afresh and not installed (a version to check before
    /// publishing it). Throws, naming the file, when it does not load.
    package func candidate(named given: String) throws(ServiceFailure) -> PassTemplate {
        let name = Self.canonicalName(given)
        let allowed = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        guard !name.isEmpty, allowed, !name.hasPrefix(".") else {
            throw .badRequest("template names are letters, digits, '-', '_' and '.'")
        }
        let path = folder + "/" + name + ".pass"
        guard FileManager.default.fileExists(atPath: path) else {
            let names = self.names
            let known = names.isEmpty ? "the service has none" : "the templates are " + names.joined(separator: ", ")
            throw .badRequest("no template named \(name): \(known) (GET /api/v1/templates lists them)", code: "unknown-template")
        }
        do {
            return try PassTemplate(folder: path)
        } catch {
            throw .unprocessable("template \(name): \(redacted(error.message))")
        }
    }

    /// The current version of a template; nil when none was loaded yet.
    func current(named name: String) -> Version? {
        current.withLock { $0[Self.canonicalName(name)] }
    }

    /// Makes `version` the current version of `name` (a publish succeeded): passes issued from now on use it.
    func install(_ version: Version, named given: String) {
        versions.withLock { $0[version.hash] = $0[version.hash] ?? version.template }
        current.withLock { $0[Self.canonicalName(given)] = version }
    }

    /// Whether a pass is at the current version of its template (a pass a publish did not fit is not).
    func isCurrent(_ pass: StoredPass) -> Bool {
        guard let hash = pass.templateVersion, let current = current(named: pass.template) else { return true }
        return hash == current.hash
    }

    /// The version stored under `hash`, a version of template `name`: from memory, else from the store.
    func version(hash: String, named name: String) async throws(ServiceFailure) -> PassTemplate {
        if let known = versions.withLock({ $0[hash] }) { return known }
        let content: String?
        do {
            content = try await store?.templateVersion(hash: hash)
        } catch {
            throw .storage("template version \(hash) of \(name) cannot be read from the store: \(error)")
        }
        guard let content, let object = try? JSONParser.value(Array(content.utf8)),
            let template = TemplateVersionJSON.template(object, folder: folder + "/" + Self.canonicalName(name) + ".pass")
        else { throw .storage("template version \(hash) of \(name) is not in the store: publish the template again") }
        return versions.withLock { versions in
            if let raced = versions[hash] { return raced }
            versions[hash] = template
            return template
        }
    }

    /// Every stored version of template `name`, the current one first (the images Google fetches may come from any).
    func versions(named name: String) async -> [PassTemplate] {
        var found = (try? currentVersion(named: name)).map { [$0.template] } ?? []
        for hash in (try? await store?.templateVersions(name: Self.canonicalName(name))) ?? [] {
            if let version = try? await version(hash: hash, named: name), !found.contains(where: { $0 === version }) {
                found.append(version)
            }
        }
        return found
    }

    /// `message` without the templates folder's path: API callers see `Loyalty.pass/pass.json`, never where the
    /// server keeps its files.
    func redacted(_ message: String) -> String {
        var message = message
        for prefix in prefixes where message.contains(prefix) { message = message.replacingOccurrences(of: prefix, with: "") }
        return message
    }

    /// The folder as configured and as an absolute path, each with a trailing slash, longest first.
    private var prefixes: [String] {
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
        return Set([folder, absolute].map { $0.hasSuffix("/") ? $0 : $0 + "/" }).sorted { $0.count > $1.count }
    }

    /// The version its row names (the current one for a row that names none), as stored: not personalized.
    func version(of pass: StoredPass) async throws(ServiceFailure) -> (hash: String, template: PassTemplate) {
        var hash = pass.templateVersion ?? ""
        if pass.templateVersion == nil { hash = try currentVersion(named: pass.template).hash }
        return (hash, try await version(hash: hash, named: pass.template))
    }

    /// The template a stored pass is built from: the version its row names (the current one for a row that names none),
    /// or that version's personalized variant once the user signed up.
    func template(for pass: StoredPass) async throws(ServiceFailure) -> PassTemplate {
        let (hash, template) = try await version(of: pass)
        guard pass.personalizationJSON != nil, template.isPersonalizable else { return template }
        let key = hash + "\u{0}personalized"
        if let known = versions.withLock({ $0[key] }) { return known }
        let personalized: PassTemplate
        do {
            personalized = try template.personalized()
        } catch {
            throw .unprocessable("template \(pass.template): \(redacted(error.message))")
        }
        versions.withLock { $0[key] = personalized }
        return personalized
    }
}
