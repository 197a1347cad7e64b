import Foundation
public import Passmint
import PassmintStore
import Synchronization

/// The templates the service issues from, by name (`Loyalty` → `<folder>/Loyalty.pass`), each loaded once, and the
/// personalized variant of a personalizable template (without `personalization.json`), made once.
public final class TemplateCatalog: Sendable {
    /// The folder holding the `<Name>.pass/` templates.
    public let folder: String
    private let loaded = Mutex<[String: PassTemplate]>([:])

    public init(folder: String) { self.folder = folder }

    /// A template by name, loaded on first use.
    public func template(named name: String) throws(ServiceFailure) -> PassTemplate {
        if let known = loaded.withLock({ $0[name] }) { return known }
        let allowed = name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }
        guard !name.isEmpty, allowed, !name.hasPrefix(".") else {
            throw .badRequest("template names are letters, digits, '-', '_' and '.'")
        }
        let path = folder + "/" + (name.hasSuffix(".pass") ? name : name + ".pass")
        guard FileManager.default.fileExists(atPath: path) else { throw .badRequest("no template named \(name)") }
        let template: PassTemplate
        do {
            template = try PassTemplate(folder: path)
        } catch {
            throw .unprocessable("template \(name): \(redacted(error.message))")
        }
        loaded.withLock { $0[name] = template }
        return template
    }

    /// Loads the template from its folder again (a new version published), replacing the one in memory and its
    /// personalized variant; the template as it is now. Throws, keeping the old version, when it does not load.
    @discardableResult
    public func reload(named name: String) throws(ServiceFailure) -> PassTemplate {
        let old = loaded.withLock { loaded in
            (loaded.removeValue(forKey: name), loaded.removeValue(forKey: name + "\u{0}personalized"))
        }
        do {
            return try template(named: name)
        } catch {
            loaded.withLock { loaded in
                if let template = old.0 { loaded[name] = template }
                if let personalized = old.1 { loaded[name + "\u{0}personalized"] = personalized }
            }
            throw error
        }
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

    /// The template a stored pass is built from: its template, or the personalized variant once the user signed up.
    func template(for pass: StoredPass) throws(ServiceFailure) -> PassTemplate {
        let template = try template(named: pass.template)
        guard pass.personalizationJSON != nil, template.isPersonalizable else { return template }
        let key = pass.template + "\u{0}personalized"
        if let known = loaded.withLock({ $0[key] }) { return known }
        let personalized: PassTemplate
        do {
            personalized = try template.personalized()
        } catch {
            throw .unprocessable("template \(pass.template): \(redacted(error.message))")
        }
        loaded.withLock { $0[key] = personalized }
        return personalized
    }
}
