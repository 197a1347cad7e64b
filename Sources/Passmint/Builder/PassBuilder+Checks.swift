import Foundation

/// What ``PassBuilder/prepare(_:)`` and ``PassBuilder/check(_:)`` run: the stamp, rendering, lint and the identity.
extension PassBuilder {
    func prepare(_ input: PassInput, writesJSON: Bool) throws(PassmintError) -> PreparedPass {
        let rendered = try rendered(input)
        let template = rendered.template
        var prepared = try prepare(
            rendered, writesJSON: writesJSON, lintMemo: template?.lintMemo, checkFiles: template == nil)
        if let template {
            prepared.warnings = relevant(template.diagnostics, identity: rendered.identity) + prepared.warnings
            prepared.archivePrefix = template.archivePrefix
        }
        return prepared
    }

    /// A pass rendered, before its checks: `pass.json` stamped (its type and team from the certificate where it
    /// names none), its files with the pass's images, and the identity that signs it.
    struct Rendered {
        var passJSON: JSONObject
        var files: [PassFile]
        var source: String
        /// The template it was made from, whose placeholders findings are traced to.
        var template: PassTemplate?
        var identity: SigningIdentity
    }

    /// Renders and stamps the pass (a template whose own diagnostics hold errors is refused first).
    func rendered(_ input: PassInput) throws(PassmintError) -> Rendered {
        let stamp = input.stamp
        let images = input.images
        var json: JSONObject
        let files: [PassFile]
        let source: String
        var template: PassTemplate?
        switch input.content {
        case .template(let made, let data):
            try refuseErrors(made.diagnostics, source: made.folder)
            let values = stamp.stamped(data: data)
            let renderedFiles: [PassFile]
            do throws(PassmintError) {
                json = try made.render(data: values)
                renderedFiles = try made.renderFiles(data: values)
            } catch {
                throw made.namingEveryMissingValue(error, data: values)
            }
            (files, source, template) = (renderedFiles, made.folder + "/pass.json", made)
        case .passJSON(let stamped, let passFiles, let passSource):
            (json, files, source) = (stamped, passFiles, passSource)
        }
        stamp.stamp(&json)
        if !images.isEmpty { try images.check(style: PassJSONValidator.styleKeys.first { json[$0] != nil }) }
        let identity = try chooseIdentity(for: json, source: source)
        if json["passTypeIdentifier"] == nil, let uid = identity.certificate.userID { json["passTypeIdentifier"] = .string(uid) }
        if json["teamIdentifier"] == nil, let ou = identity.certificate.organizationalUnit { json["teamIdentifier"] = .string(ou) }
        return Rendered(passJSON: json, files: images.applied(to: files), source: source, template: template, identity: identity)
    }

    /// Lints and checks a rendered pass. `checkFiles`: lint its files too (a pass not made from a template).
    private func prepare(
        _ rendered: Rendered, writesJSON: Bool, lintMemo: LintMemoSlot?, checkFiles: Bool
    ) throws(PassmintError) -> PreparedPass {
        let (json, files, source, identity) = (rendered.passJSON, rendered.files, rendered.source, rendered.identity)
        var diagnostics = lintMemo?.lint(json, options: options.lint) ?? PassLinter.lintJSON(json, options: options.lint)
        if checkFiles { diagnostics += PassLinter.lintFiles(files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, pass: json) }
        try refuseErrors(diagnostics, source: source, template: rendered.template)
        let passTypeIdentifier = json["passTypeIdentifier"]!.stringValue!
        let teamIdentifier = json["teamIdentifier"]!.stringValue!
        let serialNumber = json["serialNumber"]!.stringValue!
        try identity.checkCanSign(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, at: options.now ?? Date(),
            allowExpired: options.allowExpired)

        for file in files where ["pass.json", "manifest.json", "signature"].contains(file.path) {
            throw PassmintError(.invalidTemplate, "\(file.path) is made by Passmint and cannot be one of the pass's files")
        }
        return PreparedPass(
            passJSON: writesJSON ? JSONWriter.data(.object(json)) : [], files: files, passTypeIdentifier: passTypeIdentifier,
            serialNumber: serialNumber, warnings: relevant(diagnostics, identity: identity))
    }

    /// Throws when any diagnostic is an error, listing all of them (in the message, and as the error's diagnostics,
    /// traced to `template`'s placeholders).
    private func refuseErrors(_ diagnostics: [Diagnostic], source: String, template: PassTemplate? = nil) throws(PassmintError) {
        let errors = diagnostics.filter { $0.severity == .error }
        guard !errors.isEmpty else { return }
        let lines = errors.map { diagnostic in
            let location = [diagnostic.file == "pass.json" ? "" : diagnostic.file, diagnostic.path].filter { !$0.isEmpty }.joined(
                separator: " ")
            return "  \(location.isEmpty ? "" : location + ": ")\(diagnostic.message) [\(diagnostic.code)] (fix: \(diagnostic.fix))"
        }
        throw PassmintError(
            .invalidPass, "\(source) is not a valid pass:\n" + lines.joined(separator: "\n"),
            diagnostics: template?.tracing(errors) ?? errors)
    }

    /// Drops the NFC-certificate reminder when the certificate is an NFC one.
    private func relevant(_ diagnostics: [Diagnostic], identity: SigningIdentity) -> [Diagnostic] {
        // The certificate's name is read only when it matters (it costs an OpenSSL call per pass).
        let nfcCertificate =
            diagnostics.contains { $0.code == "nfc-certificate" } && identity.certificate.commonName?.contains("with NFC") == true
        return diagnostics.filter { $0.severity == .warning && !(nfcCertificate && $0.code == "nfc-certificate") }
    }

    /// The identity for the pass's `passTypeIdentifier`; without one, the only identity (whose UID fills it in).
    private func chooseIdentity(for json: JSONObject, source: String) throws(PassmintError) -> SigningIdentity {
        if let type = json["passTypeIdentifier"]?.stringValue { return try identities.identity(for: type) }
        if let sole = identities.sole { return sole }
        if json["passTypeIdentifier"] != nil { return identities.all[0] }  // not a string: lint says so
        throw PassmintError(
            .invalidPass,
            "\(source) has no passTypeIdentifier, and \(identities.source) holds several identities (\(identities.passTypeIdentifiers.joined(separator: ", "))): set passTypeIdentifier to the one to sign with"
        )
    }
}
