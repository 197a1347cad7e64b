package import Foundation
package import Passmint
import PassmintStore

/// Turns a stored pass into a signed `.pkpass`: the template version its row names (``TemplateCatalog``) filled with its data, the
/// service's `webServiceURL`, its token and voided flag, and what the user gave at sign-up. Rendering and checking
/// run on `CPUWork`'s threads, off the pool that answers devices.
///
/// It makes a stored order's signed `.order` too: its template (``TemplateCatalog/order(named:)``) filled with its
/// data, the keys the service owns written over it (`orderTypeIdentifier`, `orderIdentifier`, `authenticationToken`,
/// `updatedAt` — the version's date — and `webServiceURL`), checked by the order linter and signed with the Order Type
/// ID identity.
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
    /// The time an order's signature is checked against (the certificate's validity), and a new version's date.
    let clock: @Sendable () -> Date

    package init(
        builder: PassBuilder, templates: TemplateCatalog, images: PassImageLibrary, webServiceURL: String, metrics: ServiceMetrics? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.builder = builder
        self.templates = templates
        self.images = images
        self.webServiceURL = webServiceURL
        self.metrics = metrics
        self.clock = clock
    }

    /// Renders and checks a pass without signing it: throws what building it would throw. `data` is the pass's data
    /// when the caller has it parsed already; otherwise `StoredPass.dataJSON` is parsed.
    func prepare(_ pass: StoredPass, data: JSONObject? = nil) async throws(ServiceFailure) -> PreparedPass {
        try await rendering(pass, data: data) { builder, input throws(PassmintError) in try builder.prepare(input) }
    }

    /// The pass's `pass.json` object and files as ``prepare(_:data:)`` makes them, without linting them again: a stored
    /// pass was checked when the change that stored it committed. For showing it another way (Google Wallet).
    func render(_ pass: StoredPass) async throws(ServiceFailure) -> (passJSON: JSONObject, files: [PassFile]) {
        try await rendering(pass) { builder, input throws(PassmintError) in try builder.render(input) }
    }

    /// `work` on the pass's input, on `CPUWork`'s threads, timed as `render`.
    private func rendering<T: Sendable>(
        _ pass: StoredPass, data: JSONObject? = nil, _ work: @escaping @Sendable (PassBuilder, PassInput) throws(PassmintError) -> T
    ) async throws(ServiceFailure) -> T {
        let start = ContinuousClock.now
        let input = try await self.input(pass, data: data)
        defer { metrics?.time("render", ContinuousClock.now - start) }
        return try await CPUWork.run { () throws(ServiceFailure) in
            do throws(PassmintError) {
                return try work(builder, input)
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

    /// The signed bytes of a stored pass or order (its kind is its type's).
    func archive(_ document: StoredPass) async throws(ServiceFailure) -> [UInt8] {
        if WalletWebService.Kind(typeIdentifier: document.passTypeIdentifier) == .order { return try order(document).archive }
        return try await build(document).archive
    }

    /// The signed order of `order`'s identity and version, with `data` (its stored data when nil).
    func order(_ order: StoredPass, data: JSONObject? = nil) throws(ServiceFailure) -> BuiltOrder {
        let template = try templates.order(named: order.template)
        let json = try orderJSON(order, data: data, template: template)
        do {
            let builder = OrderBuilder(identities: builder.identities, options: .init(now: clock()))
            let source = TemplateCatalog.orderName(order.template) + ".order/order.json"
            return try builder.build(orderJSON: json, files: template.files, source: source)
        } catch {
            throw .unprocessable(error.message)
        }
    }

    /// The `order.json` of `order`'s version with `data` (its stored data when nil), as it is signed.
    func orderJSON(_ order: StoredPass, data: JSONObject? = nil, template: OrderTemplate? = nil) throws(ServiceFailure) -> JSONObject {
        let chosen: OrderTemplate
        if let template { chosen = template } else { chosen = try templates.order(named: order.template) }
        var json = try render(chosen, order: order, data: data ?? Self.data(order.dataJSON))
        json["orderTypeIdentifier"] = .string(order.passTypeIdentifier)
        return json
    }

    /// The order type a new order of `template` with `data` gets: the template's `orderTypeIdentifier` (after its
    /// placeholders), else the one Order Type ID identity of the certificates folder.
    func orderType(template name: String, data: JSONObject) throws(ServiceFailure) -> String {
        let probe = StoredPass(
            passTypeIdentifier: "", serialNumber: "probe", authenticationToken: "probe-token-0123456789", template: name,
            dataJSON: "{}", updatedAt: clock())
        let rendered = try render(templates.order(named: name), order: probe, data: data)
        if let type = rendered["orderTypeIdentifier"]?.stringValue, !type.isEmpty { return type }
        let orderTypes = builder.identities.passTypeIdentifiers.filter { $0.hasPrefix("order.") }
        guard orderTypes.count == 1 else {
            throw .unprocessable(
                orderTypes.isEmpty
                    ? "the certificates folder holds no Order Type ID certificate (UID order.…): add one to issue orders"
                    : "the certificates folder holds several Order Type ID certificates (\(orderTypes.joined(separator: ", "))): "
                        + "give \"orderTypeIdentifier\" in the template or the data")
        }
        return orderTypes[0]
    }

    private func render(_ template: OrderTemplate, order: StoredPass, data: JSONObject) throws(ServiceFailure) -> JSONObject {
        var values = data
        let owned: JSONObject = [
            "orderIdentifier": .string(order.serialNumber), "authenticationToken": .string(order.authenticationToken),
            "updatedAt": .string(RFC3339Date.string(from: order.updatedAt)),
        ]
        for member in owned { values[member.key] = member.value }
        var json: JSONObject
        do {
            json = try template.render(data: values)
        } catch {
            throw .unprocessable(error.message.replacingOccurrences(of: templates.orderFolder + "/", with: ""))
        }
        for member in owned { json[member.key] = member.value }
        json["webServiceURL"] = .string(webServiceURL)
        return json
    }

    /// A stored data text as an object (an empty one when it does not parse, which the store never holds).
    static func data(_ text: String) -> JSONObject { (try? JSONParser.value(Array(text.utf8)).objectValue) ?? JSONObject() }

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
