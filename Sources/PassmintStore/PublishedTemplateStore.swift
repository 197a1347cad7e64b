/// A template version as a node of a fleet published it: its name, the node, and the version itself (the service's
/// JSON of it), numbered in the order they were published.
public struct PublishedTemplate: Sendable, Equatable {
    public var sequence: Int64
    public var name: String
    public var node: String
    public var version: String

    public init(sequence: Int64, name: String, node: String, version: String) {
        self.sequence = sequence
        self.name = name
        self.node = node
        self.version = version
    }
}

/// The template versions published on the nodes of a fleet, so that every node serves the version published through
/// any of them. The PostgreSQL store keeps them and tells every node through its change feed; a SQLite store serves
/// one node, which installs what it publishes itself.
public protocol PublishedTemplateStore: Sendable {
    /// Records a version `node` published, and tells every node on commit; its number.
    func recordPublishedTemplate(name: String, node: String, version: String) async throws -> Int64

    /// The versions published after number `after`, in order; with `latestOnly`, the last one of each template.
    func publishedTemplates(after: Int64, latestOnly: Bool) async throws -> [PublishedTemplate]

    /// Calls `handler` whenever a node may have published a version: when one is announced, and when the store starts
    /// following (again, after a lost connection), since what was announced meanwhile was not seen.
    func onTemplatePublished(_ handler: @escaping @Sendable () -> Void)
}
