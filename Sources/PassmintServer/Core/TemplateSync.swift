import Logging
import Passmint
import PassmintStore
import Synchronization

/// Every node of a fleet issues from the template version published through any of them: the node that publishes
/// records the version (``PublishedTemplateStore``) once it is checked and stored, before its passes move to it, and
/// the other nodes, told through the change feed, make it their current version (their own templates folders may hold
/// an older one). Passes need no telling: each renders from the stored version its row names. A node starting installs
/// the last version published of each template.
final class TemplateSync: Sendable {
    let store: any PublishedTemplateStore
    let templates: TemplateCatalog
    /// This node's name on what it publishes.
    let node = randomHex(16)
    let logger: Logger
    /// The number of the last version looked at; nil before the first look.
    private let seen = Mutex<Int64?>(nil)
    private let doorbell = Doorbell()

    init(store: any PublishedTemplateStore, templates: TemplateCatalog, logger: Logger) {
        self.store = store
        self.templates = templates
        self.logger = logger
        store.onTemplatePublished { [doorbell] in doorbell.ring() }
    }

    /// Records a version this node publishes for the job `job`.
    func published(_ template: PassTemplate, named name: String, job: String) async throws {
        _ = try await store.recordPublishedTemplate(name: name, node: node, version: TemplateVersionJSON.published(template, job: job))
    }

    /// Whether the job `job` recorded a version of `name` (for a node taking the job over once it installed it).
    func hasPublished(byJob job: String, template name: String) async throws -> Bool {
        for latestOnly in [true, false] {  // a newer version may have come after it
            let versions = try await store.publishedTemplates(after: 0, latestOnly: latestOnly)
            if versions.contains(where: { $0.name == name && TemplateVersionJSON.job($0.version) == job }) { return true }
        }
        return false
    }

    /// Installs the versions other nodes publish, whenever the feed tells, until cancelled.
    func follow() async {
        while !Task.isCancelled {
            await catchUp()
            await withTaskCancellationHandler {
                await doorbell.wait(timeout: .seconds(300))
            } onCancel: { [doorbell] in
                doorbell.ring()
            }
        }
    }

    /// Installs what other nodes published since the last look (the last version of each template on the first look).
    func catchUp() async {
        let after = seen.withLock { $0 }
        do {
            let published = try await store.publishedTemplates(after: after ?? 0, latestOnly: after == nil)
            for version in published where version.node != node { install(version) }
            seen.withLock { $0 = max($0 ?? 0, published.last?.sequence ?? 0) }
        } catch {
            logger.warning("cannot read the template versions other nodes published", metadata: ["error": "\(LogText.error(error))"])
        }
    }

    private func install(_ version: PublishedTemplate) {
        let folder = templates.folder + "/" + version.name + ".pass"
        guard let object = try? JSONParser.value(Array(version.version.utf8)),
            let template = TemplateVersionJSON.template(object, folder: folder)
        else {
            logger.error("a template version another node published cannot be read", metadata: ["template": "\(version.name)"])
            return
        }
        templates.install(TemplateCatalog.Version(template), named: version.name)
        logger.notice("template published on another node installed", metadata: ["template": "\(version.name)"])
    }
}
