import Foundation
import Logging
import Passmint
import PassmintStore

/// The versions passes are kept at when a newer version of their template does not fit them, kept across restarts: a
/// publish that keeps passes at the version it replaced writes that version into the jobs folder
/// (`<id>.kept-version.json`), and a starting service replays the publishes in order to find each pass's version.
extension UpdateJobService {
    /// Writes the version a publish replaced, for the passes it keeps at it.
    func saveKeptVersion(_ template: PassTemplate, job id: String) {
        let bytes = JSONWriter.data(.object(TemplateVersionJSON.object(template)), style: .compact)
        do {
            try FileIO.writeAtomically(bytes, to: folder.keptVersion(id))
        } catch {
            logger.error(
                "cannot save the version kept passes are served at", metadata: ["job": "\(id)", "error": "\(LogText.error(error))"])
        }
    }

    private func loadKeptVersion(job id: String) -> PassTemplate? {
        guard let bytes = try? FileIO.read(folder.keptVersion(id), what: "kept version"), let object = try? JSONParser.value(bytes)
        else { return nil }
        return TemplateVersionJSON.template(object)
    }

    /// Replays the template-wide changes that got past their check, oldest first, as ``install`` did them: each keeps
    /// the passes it did not fit at their version before it.
    func restoreKeptVersions() {
        for job in folder.all() where job.kind == .template && job.phase == .applying {
            guard let name = job.template else { continue }
            let misfits = folder.keptKeys(job.id)
            let replaced = misfits.isEmpty ? nil : loadKeptVersion(job: job.id)
            var keeping: [PassKey: PassTemplate] = [:]
            for key in misfits {
                if let last = templates.keptVersion(of: key) ?? replaced { keeping[key] = last }
            }
            templates.keep(keeping, of: name)
            if !keeping.isEmpty {
                logger.notice(
                    "passes kept at an older version of their template", metadata: ["template": "\(name)", "passes": "\(keeping.count)"])
            }
        }
    }
}
