public import Foundation

/// A pass the service issued and keeps up to date.
public struct StoredPass: Sendable, Equatable {
    public var passTypeIdentifier: String
    public var serialNumber: String
    /// Never changes for a serial: devices keep the token of the copy they have.
    public var authenticationToken: String
    /// The template's name (its folder name without `.pass`).
    public var template: String
    /// The pass's data (placeholder name → value) as a JSON object text.
    public var dataJSON: String
    public var voided: Bool
    /// Totally ordered across the store: a pass changed after tag T has a tag greater than T.
    public var updateTag: Int64
    /// When the pass last changed (whole seconds, strictly increasing per pass): the `Last-Modified` date.
    public var updatedAt: Date
    /// The outcome of the last push for this pass, as JSON text, as versions before the push queue wrote it (now each
    /// device's outcome is kept: ``PassStore/pushStates(passTypeIdentifier:serialNumber:)``).
    public var lastPushJSON: String?
    /// What the user gave when signing up for a personalizable (rewards) pass, as a JSON object text; nil until then.
    public var personalizationJSON: String?
    /// When the pass was erased (``PassEdit/erase``): its data and personalization are gone, it is voided for good, and the
    /// row stays only as a tombstone so that its serial is not issued again. Nil for a pass that was not erased.
    public var erasedAt: Date?
    /// The content hash of the template version the pass was issued from or last moved to by a publish
    /// (``TemplateVersionStore``): the version it is rendered from. Nil only for a row stored before versions were
    /// recorded, until the service adopts it at start.
    public var templateVersion: String?

    public init(
        passTypeIdentifier: String, serialNumber: String, authenticationToken: String, template: String, dataJSON: String,
        voided: Bool = false, updateTag: Int64 = 0, updatedAt: Date = Date(), lastPushJSON: String? = nil,
        personalizationJSON: String? = nil, erasedAt: Date? = nil, templateVersion: String? = nil
    ) {
        self.passTypeIdentifier = passTypeIdentifier
        self.serialNumber = serialNumber
        self.authenticationToken = authenticationToken
        self.template = template
        self.dataJSON = dataJSON
        self.voided = voided
        self.updateTag = updateTag
        self.updatedAt = updatedAt
        self.lastPushJSON = lastPushJSON
        self.personalizationJSON = personalizationJSON
        self.erasedAt = erasedAt
        self.templateVersion = templateVersion
    }
}
