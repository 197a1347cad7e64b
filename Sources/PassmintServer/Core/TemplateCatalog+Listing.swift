import Foundation
package import Passmint

/// The templates in the catalog's folder, for `GET /api/v1/templates` and the list `passmint serve` prints at start-up.
extension TemplateCatalog {
    /// One template folder: its name, the pass type its passes get, and what is wrong with it.
    package struct Listing: Sendable {
        package var name: String
        /// The template's passTypeIdentifier, or the certificate's when the template leaves it out; nil when unknown.
        package var passTypeIdentifier: String?
        /// Why the template cannot issue (it does not load, lint errors, no certificate for its type); nil when it can.
        package var problem: String?
    }

    /// The names of the `<Name>.pass` folders in the catalog's folder, sorted.
    package var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".pass") && $0.count > 5 }.sorted()
            .map { String($0.dropLast(5)) }
    }

    /// Every `<Name>.pass` folder, by name, loaded and linted with `builder` (its identities give the pass type).
    package func listings(builder: PassBuilder) -> [Listing] {
        names.map { name in
            let template: PassTemplate
            do {
                template = try self.template(named: name)
            } catch {
                return Listing(name: name, passTypeIdentifier: nil, problem: (error as? ServiceFailure)?.message ?? "\(error)")
            }
            let identities = builder.identities
            let type = template.passJSON["passTypeIdentifier"]?.stringValue ?? identities.sole?.certificate.userID
            let errors = template.diagnostics.filter { $0.severity == .error }
            if let first = errors.first {
                let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
                return Listing(name: name, passTypeIdentifier: type, problem: "\(redacted(first.description))\(more)")
            }
            if let type, !identities.passTypeIdentifiers.contains(type), identities.sole?.certificate.userID != type {
                return Listing(
                    name: name, passTypeIdentifier: type,
                    problem:
                        "no certificate for its pass type \(type) (the certificates hold \(identities.passTypeIdentifiers.joined(separator: ", ")))"
                )
            }
            return Listing(name: name, passTypeIdentifier: type, problem: nil)
        }
    }
}
