import ArgumentParser
import Foundation
import Passmint
import PassmintServer

/// What `passmint serve` checks before it listens, and what it says when it cannot listen.
extension ServeCommand {
    /// Refuses to start with an expired certificate (Wallet refuses what it signs) unless `--allow-expired`, and
    /// prints every template with its pass type and whether it can issue.
    func checkAtStartUp(_ configuration: ServerConfiguration) throws {
        let now = Date()
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        for identity in configuration.identities.all where identity.certificate.notAfter < now {
            let type = identity.certificate.userID ?? identity.certificate.subject
            let expiry = day.string(from: identity.certificate.notAfter)
            if allowExpired {
                printError("warning: the certificate of \(type) expired on \(expiry): Wallet refuses the passes it signs")
                continue
            }
            throw ValidationError(
                """
                the certificate of \(type) in \(configuration.identities.source) expired on \(expiry): Wallet refuses the passes it \
                signs. Make a new one in Apple's developer account (Certificates, Identifiers & Profiles) and put it in the \
                certificates folder, or give --allow-expired to start anyway (tests only)
                """)
        }
        let catalog = TemplateCatalog(folder: configuration.templatesFolder)
        let listings = catalog.listings(builder: PassBuilder(identities: configuration.identities))
        if listings.isEmpty {
            printError(
                "warning: \(configuration.templatesFolder) holds no templates (<Name>.pass folders): the issuing API can issue nothing")
        } else {
            printError("templates in \(configuration.templatesFolder):")
            for listing in listings {
                printError(
                    "  \(listing.name): \(listing.passTypeIdentifier ?? "no pass type"), \(listing.problem.map { "cannot issue: \($0)" } ?? "ok")"
                )
            }
        }
    }

    /// The error of a service that could not start, in the operator's terms: a port in use names the port and the
    /// option that changes it.
    static func startFailure(_ error: any Error, configuration: ServerConfiguration) -> any Error {
        if error is CancellationError {
            printError("stopped before it started: asked to stop (SIGTERM or SIGINT) while the store was out of reach")
            return ExitCode.success
        }
        let text = String(describing: error)
        if text.contains("Address already in use") || text.contains("EADDRINUSE") || text.contains("errno: 98") {
            return ValidationError(
                """
                port \(configuration.port) on \(configuration.host) is in use by another program (or another passmint serve): \
                stop it, or give another port with --port (or PASSMINT_PORT)
                """)
        }
        return error
    }
}
