import Foundation

/// What ``PassBuilder/prepare(_:)`` and ``PassBuilder/check(_:)`` run: the stamp, rendering, lint and the identity.
extension PassBuilder {
    func prepare(_ input: PassInput, writesJSON: Bool) throws(PassmintError) -> PreparedPass {
        let stamp = input.stamp
        let images = input.images
        switch input.content {
        case .template(let template, let data):
            try refuseErrors(template.diagnostics, source: template.folder)
            let values = stamp.stamped(data: data)
            var rendered: JSONObject
            let renderedFiles: [PassFile]
            do throws(PassmintError) {
                rendered = try template.render(data: values)
                renderedFiles = try template.renderFiles(data: values)
            } catch {
                throw template.namingEveryMissingValue(error, data: values)
            }
            stamp.stamp(&rendered)
            if !images.isEmpty { try images.check(style: PassJSONValidator.styleKeys.first { rendered[$0] != nil }) }
            var prepared = try prepare(
                passJSON: rendered, files: images.applied(to: renderedFiles), source: template.folder + "/pass.json", checkFiles: false,
                writesJSON: writesJSON, lintMemo: template.lintMemo, template: template)
            let identity = try identities.identity(for: prepared.passTypeIdentifier)
            prepared.warnings = relevant(template.diagnostics, identity: identity) + prepared.warnings
            prepared.archivePrefix = template.archivePrefix
            return prepared
        case .passJSON(var stamped, let files, let source):
            stamp.stamp(&stamped)
            if !images.isEmpty { try images.check(style: PassJSONValidator.styleKeys.first { stamped[$0] != nil }) }
            return try prepare(
                passJSON: stamped, files: images.applied(to: files), source: source, checkFiles: true, writesJSON: writesJSON)
        }
    }

    /// `template`: the template the pass was made from, whose placeholders findings are traced to.
    private func prepare(
        passJSON: JSONObject, files: [PassFile], source: String, checkFiles: Bool, writesJSON: Bool, lintMemo: LintMemoSlot? = nil,
        template: PassTemplate? = nil
    ) throws(PassmintError) -> PreparedPass {
        var json = passJSON
        let identity = try chooseIdentity(for: json, source: source)
        if json["passTypeIdentifier"] == nil, let uid = identity.certificate.userID { json["passTypeIdentifier"] = .string(uid) }
        if json["teamIdentifier"] == nil, let ou = identity.certificate.organizationalUnit { json["teamIdentifier"] = .string(ou) }

        var diagnostics = lintMemo?.lint(json, options: options.lint) ?? PassLinter.lintJSON(json, options: options.lint)
        if checkFiles { diagnostics += PassLinter.lintFiles(files.map { PassContents.File(path: $0.path, bytes: $0.bytes) }, pass: json) }
        try refuseErrors(diagnostics, source: source, template: template)
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
