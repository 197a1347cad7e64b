import Foundation
package import Passmint
import PassmintStore

/// Turns a stored pass into a signed `.pkpass`: the template version its row names (``TemplateCatalog``) filled with its data, the
/// service's `webServiceURL`, its token and voided flag, and what the user gave at sign-up. Rendering and checking
/// run on `CPUWork`'s threads, off the pool that answers devices.
package struct PassRenderer: Sendable {
    package let builder: PassBuilder
    let templates: TemplateCatalog

    /// A message for an API answer: the service's paths (its templates and certificates folders) taken out.
    func redacted(_ message: String) -> String {
        let certificates = builder.identities.source
        let text = templates.redacted(message)
        guard FileManager.default.fileExists(atPath: certificates) else { return text }
        return text.replacingOccurrences(of: certificates, with: "the service's certificates folder")
    }
    /// The pass's own images its data names (`image:thumbnail@2x`).
    let images: PassImageLibrary
    /// Written into every pass as `webServiceURL`.
    let webServiceURL: String
    /// Where rendering and signing times go (`GET /metrics`).
    let metrics: ServiceMetrics?

    package init(
        builder: PassBuilder, templates: TemplateCatalog, images: PassImageLibrary, webServiceURL: String, metrics: ServiceMetrics? = nil
    ) {
        self.builder = builder
        self.templates = templates
        self.images = images
        self.webServiceURL = webServiceURL
        self.metrics = metrics
    }

    /// Renders and checks a pass without signing it: throws what building it would throw. `data` is the pass's data
    /// when the caller has it parsed already; otherwise `StoredPass.dataJSON` is parsed.
    func prepare(_ pass: StoredPass, data: JSONObject? = nil) async throws(ServiceFailure) -> PreparedPass {
        let start = ContinuousClock.now
        let input = try await self.input(pass, data: data)
        defer { metrics?.time("render", ContinuousClock.now - start) }
        return try await CPUWork.run { () throws(ServiceFailure) in
            do throws(PassmintError) {
                return try builder.prepare(input)
            } catch {
                throw .building(error, redacted)
            }
        }
    }

    /// Every check of ``prepare(_:data:)`` without writing `pass.json`: what a bulk change runs on each row (the
    /// pass is signed when a device or a link asks for it).
    ///
    /// `version`: a template version to check against instead of the one the pass is served at (a new version
    /// before it is published).
    func check(_ pass: StoredPass, data: JSONObject? = nil, version: PassTemplate? = nil) async throws(ServiceFailure) {
        let input = try await self.input(pass, data: data, version: version)
        try await CPUWork.run { () throws(ServiceFailure) in
            do throws(PassmintError) {
                _ = try builder.check(input)
            } catch {
                throw .building(error, redacted)
            }
        }
    }

    /// What a stored pass is built from: its template, data and images, stamped with its serial, token and voided
    /// flag and the service's `webServiceURL`; an erased pass's data is gone, so it is built from blanks
    /// (``ErasedPassValues``).
    private func input(_ pass: StoredPass, data: JSONObject? = nil, version: PassTemplate? = nil) async throws(ServiceFailure) -> PassInput
    {
        let template: PassTemplate
        if let version {
            template = try personalized(version, for: pass)
        } else {
            template = try await templates.template(for: pass)
        }
        guard var values = data ?? (try? JSONParser.value(Array(pass.dataJSON.utf8)).objectValue) else {
            throw .unprocessable("the stored data of \(pass.serialNumber) is not a JSON object")
        }
        if let erasedAt = pass.erasedAt { values = ErasedPassValues.values(for: template, of: pass, erasedAt: erasedAt) }
        let stamp = PassStamp(
            serialNumber: pass.serialNumber, authenticationToken: pass.authenticationToken, webServiceURL: webServiceURL,
            voided: pass.voided)
        if template.isPersonalizable || pass.personalizationJSON != nil {
            // `{{personalization.fullName}}` …: what the user gave, or (before sign-up) the data's value or "".
            let info = pass.personalizationJSON.flatMap { try? JSONParser.value(Array($0.utf8)).objectValue }
                .flatMap { try? PersonalizationInfo(json: $0) }
            for member in (info ?? PersonalizationInfo()).placeholderValues where info != nil || values[member.key] == nil {
                values[member.key] = member.value
            }
        }
        return PassInput(template: template, data: values, images: try await images.images(in: values), stamp: stamp)
    }

    /// `version`, or its personalized variant once the pass's user signed up.
    private func personalized(_ version: PassTemplate, for pass: StoredPass) throws(ServiceFailure) -> PassTemplate {
        guard pass.personalizationJSON != nil, version.isPersonalizable else { return version }
        do {
            return try version.personalized()
        } catch {
            throw .unprocessable("template \(pass.template): \(redacted(error.message))")
        }
    }

    /// Signs and zips a prepared pass.
    func sign(_ prepared: PreparedPass) throws(ServiceFailure) -> BuiltPass {
        let start = ContinuousClock.now
        defer { metrics?.time("sign", ContinuousClock.now - start) }
        do {
            return try builder.sign(prepared)
        } catch {
            throw .building(error, redacted)
        }
    }

    /// Renders, checks and signs a stored pass.
    func build(_ pass: StoredPass, data: JSONObject? = nil) async throws(ServiceFailure) -> BuiltPass {
        try sign(try await prepare(pass, data: data))
    }

    /// The PKCS#7 detached DER signature of `content`, made with the certificate of `passTypeIdentifier` exactly like
    /// the manifest's.
    func signDetached(_ content: [UInt8], passTypeIdentifier: String) throws(ServiceFailure) -> [UInt8] {
        do {
            return try builder.identities.identity(for: passTypeIdentifier).signDetached(content)
        } catch {
            throw .building(error) { "cannot sign the personalization token: " + redacted($0) }
        }
    }
}
