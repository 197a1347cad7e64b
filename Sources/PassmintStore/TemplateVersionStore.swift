/// Template versions kept by content: each version a service renders passes from is stored once, under the SHA-256 of
/// its content, and never changes; a pass names the version it is rendered from (``StoredPass/templateVersion``).
/// Both backends keep them (migration 16 on SQLite, 17 on PostgreSQL).
public protocol TemplateVersionStore: Sendable {
    /// Stores a version of template `name` under `hash` (the SHA-256 of `content`); a hash stored already is left as it is.
    func storeTemplateVersion(hash: String, name: String, content: String) async throws

    /// The content stored under `hash`; nil when none is.
    func templateVersion(hash: String) async throws -> String?

    /// The hashes of every stored version of template `name`, oldest first.
    func templateVersions(name: String) async throws -> [String]

    /// Gives the passes of template `name` that name no version (rows stored before versions were recorded) the
    /// version `hash`; how many it gave it.
    func adoptTemplateVersion(hash: String, name: String) async throws -> Int
}
