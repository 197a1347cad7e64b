extension PassTemplate {
    /// True when the template makes personalizable (rewards-enrollment) passes: it holds `personalization.json`.
    public var isPersonalizable: Bool { files.contains { $0.path == PersonalizationRequest.fileName } }

    /// The template's `personalization.json`, parsed; nil when the template makes ordinary passes.
    public func personalizationRequest() throws(PassmintError) -> PersonalizationRequest? {
        guard let file = files.first(where: { $0.path == PersonalizationRequest.fileName }) else { return nil }
        return try PersonalizationRequest(bytes: file.bytes, file: folder + "/" + file.path)
    }

    /// The template of the personalized pass: the same `pass.json` and files without `personalization.json` and the
    /// `personalizationLogo` images. Wallet replaces a personalizable pass with the pass built from it once the user
    /// has signed up; a personalized pass must not hold `personalization.json` (or Wallet offers sign-up again).
    public func personalized() throws(PassmintError) -> PassTemplate {
        let kept = files.filter { file in
            file.path != PersonalizationRequest.fileName && ImageName(path: file.path)?.name != "personalizationLogo"
        }
        return try PassTemplate(folder: folder, passJSON: passJSON, files: kept, readingDiagnostics: [], generatedStrings: [])
    }
}
