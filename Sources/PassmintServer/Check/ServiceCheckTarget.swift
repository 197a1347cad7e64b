package import Passmint

/// What `passmint check-service` checks: one pass or order at its web service, as a device holding it sees it.
package struct ServiceCheckTarget: Sendable, Equatable {
    package var kind: WalletWebService.Kind
    /// Where the service is called: the document's `webServiceURL` (without the `v1` segment, which the protocol
    /// adds), or another address of the same service (one the documents do not point at yet, a local port).
    package var serviceURL: String
    /// The `webServiceURL` the documents carry: the latest version must keep it.
    package var documentURL: String
    /// The document's `authenticationToken`.
    package var token: String
    /// The pass or order type identifier.
    package var typeIdentifier: String
    /// The serial number or order identifier.
    package var identifier: String
    /// The pass holds `personalization.json` (rewards enrollment).
    package var personalizes: Bool

    package init(
        kind: WalletWebService.Kind, serviceURL: String, token: String, typeIdentifier: String, identifier: String,
        documentURL: String? = nil, personalizes: Bool = false
    ) {
        self.kind = kind
        self.serviceURL = serviceURL
        self.documentURL = documentURL ?? serviceURL
        self.token = token
        self.typeIdentifier = typeIdentifier
        self.identifier = identifier
        self.personalizes = personalizes
    }

    /// The target a signed `.pkpass` or `.order` names: its `pass.json` (or `order.json`) must hold `webServiceURL`,
    /// `authenticationToken`, the type identifier and the serial (order identifier).
    package init(document bytes: [UInt8], source: String) throws(PassmintError) {
        let entries = try ZipArchive.read(bytes, source: source)
        let kind: WalletWebService.Kind = entries.contains { $0.name == "pass.json" } ? .pass : .order
        let name = kind == .pass ? "pass.json" : "order.json"
        guard let entry = entries.first(where: { $0.name == name }) else {
            throw PassmintError(.archiveFailed, "\(source) holds neither pass.json nor order.json: give a .pkpass or .order")
        }
        guard let json = (try? JSONParser.value(entry.bytes))?.objectValue else {
            throw PassmintError(kind == .pass ? .invalidPass : .invalidOrder, "\(source): \(name) is not a JSON object")
        }
        func value(_ key: String) throws(PassmintError) -> String {
            guard let text = json[key]?.stringValue, !text.isEmpty else {
                throw PassmintError(
                    kind == .pass ? .invalidPass : .invalidOrder,
                    "\(source): \(name) has no \(key); give it with --\(Self.option(key, kind)) to check a service without it")
            }
            return text
        }
        self.init(
            kind: kind, serviceURL: try value("webServiceURL"), token: try value("authenticationToken"),
            typeIdentifier: try value(kind.typeIdentifierName), identifier: try value(kind.identifierName),
            personalizes: entries.contains { $0.name == "personalization.json" })
    }

    /// The command-line option that gives `key` without a document.
    static func option(_ key: String, _ kind: WalletWebService.Kind) -> String {
        switch key {
        case "webServiceURL": "service-url"
        case "authenticationToken": "token"
        case "passTypeIdentifier": "pass-type-id"
        case "orderTypeIdentifier": "order-type-id"
        case "orderIdentifier": "order-id"
        default: "serial"
        }
    }
}
