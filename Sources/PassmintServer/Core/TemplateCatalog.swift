import Foundation
public import Passmint
import PassmintStore
import Synchronization

/// The templates the service issues from, by name (`Loyalty` → `<folder>/Loyalty.pass`; `Loyalty.pass` names the same
/// template), each loaded once, and the personalized variant of a personalizable template (without
/// `personalization.json`), made once. A pass a newly published version does not fit keeps its last good version
/// (`install(_:named:keeping:)`).
public final class TemplateCatalog: Sendable {
    /// The folder holding the `<Name>.pass/` templates.
    public let folder: String
    private let loaded = Mutex<[String: PassTemplate]>([:])
    /// Passes served at an older version of their template than the current one.
    private let kept = Mutex<Kept>(Kept())

    private struct Kept {
        /// The version each kept pass is served at.
        var passes: [PassKey: PassTemplate] = [:]
        /// The distinct versions passes are kept at, by template folder.
        var versions: [String: [PassTemplate]] = [:]
    }

    public init(folder: String) { self.folder = folder }

    /// The name passes and jobs know a template by: without `.pass`.
    public static func canonicalName(_ name: String) -> String {
        name.hasSuffix(".pass") && name.count > 5 ? String(name.dropLast(5)) : name
    }

    /// A template by name, loaded on first use.
    public func template(named given: String) throws(ServiceFailure) -> PassTemplate {
        let name = Self.canonicalName(given)
        if let known = loaded.withLock({ $0[name] }) { return known }
        let template = try candidate(named: name)
        return loaded.withLock { loaded in
            if let raced = loaded[name] { return raced }
            loaded[name] = template
            return template
        }
    }

    /// The template as its folder holds it now, loaded afresh and not installed (a version to check before
    /// publishing it). Throws, naming the file, when it does not load.
    public func candidate(named given: String) throws(ServiceFailure) -> PassTemplate {
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

    /// The version of a template passes are served at now; nil when none was loaded yet.
    func current(named name: String) -> PassTemplate? {
        loaded.withLock { $0[Self.canonicalName(name)] }
    }

    /// Makes `template` the version of `name` (a new version published), dropping its personalized variant; the passes
    /// in `keeping` stay at the version given for each, the others of this template at an older one follow the new.
    func install(_ template: PassTemplate, named given: String, keeping: [PassKey: PassTemplate]) {
        let name = Self.canonicalName(given)
        loaded.withLock { loaded in
            loaded[name] = template
            loaded[name + "\u{0}personalized"] = nil
        }
        keep(keeping, of: name)
    }

    /// The passes of template `name` kept at an older version: those in `keeping`, at the version given for each.
    func keep(_ keeping: [PassKey: PassTemplate], of given: String) {
        let folder = folder + "/" + Self.canonicalName(given) + ".pass"
        kept.withLock { kept in
            kept.passes = kept.passes.filter { $0.value.folder != folder }
            kept.passes.merge(keeping) { $1 }
            var seen = Set<ObjectIdentifier>()
            kept.versions[folder] = kept.passes.values.filter { $0.folder == folder && seen.insert(ObjectIdentifier($0)).inserted }
        }
    }

    /// The version a pass is kept at, when a newer one did not fit it.
    func keptVersion(of key: PassKey) -> PassTemplate? { kept.withLock { $0.passes[key] } }

    /// The older versions of template `name` some passes are kept at.
    func keptVersions(named name: String) -> [PassTemplate] {
        let folder = folder + "/" + Self.canonicalName(name) + ".pass"
        return kept.withLock { $0.versions[folder] ?? [] }
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

    /// The template a stored pass is built from: its template (at the version it is kept at, if a newer one did not
    /// fit it), or the personalized variant once the user signed up.
    func template(for pass: StoredPass) throws(ServiceFailure) -> PassTemplate {
        let keptVersion = keptVersion(of: PassKey(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber))
        let template: PassTemplate
        if let keptVersion {
            template = keptVersion
        } else {
            template = try self.template(named: pass.template)
        }
        guard pass.personalizationJSON != nil, template.isPersonalizable else { return template }
        let key = Self.canonicalName(pass.template) + "\u{0}personalized"
        if keptVersion == nil, let known = loaded.withLock({ $0[key] }) { return known }
        let personalized: PassTemplate
        do {
            personalized = try template.personalized()
        } catch {
            throw .unprocessable("template \(pass.template): \(redacted(error.message))")
        }
        if keptVersion == nil { loaded.withLock { $0[key] = personalized } }
        return personalized
    }
}
