/// The rules on `pass.json`, run one by one over one pass. Each rule appends its findings to ``found`` and reads the
/// pass only through ``pass``, so that ``LintMemo`` can tell which rules a new pass needs to run again.
struct JSONRules {
    let pass: RuleInput
    let isTemplate: Bool
    let options: LintOptions
    var found: [Diagnostic] = []
    init(pass: JSONObject, isTemplate: Bool, options: LintOptions, recordingInto recorder: RuleReads? = nil) {
        self.pass = RuleInput(pass, recordingInto: recorder)
        self.isTemplate = isTemplate
        self.options = options
    }

    mutating func error(_ code: String, _ path: String, _ message: String, fix: String) {
        found.append(Diagnostic(.error, code, path: path, message, fix: fix))
    }

    mutating func warning(_ code: String, _ path: String, _ message: String, fix: String) {
        found.append(Diagnostic(.warning, code, path: path, message, fix: fix))
    }

    /// The style key present first (Wallet's order); reads only which style keys are present.
    var style: String? { PassJSONValidator.styleKeys.first { pass.contains($0) } }

    /// Every rule, in order.
    mutating func run() {
        for rule in JSONRule.allCases { run(rule) }
    }

    mutating func run(_ rule: JSONRule) {
        switch rule {
        case .requiredKeys: requiredKeys()
        case .topLevelTypes: topLevelTypes()
        case .styleStructure: styleStructure()
        case .barcodeStructure: barcodeStructure()
        case .nfcStructure: nfcStructure()
        case .placeStructure: placeStructure()
        case .identifiers: identifiers()
        case .colors: colors()
        case .dates: dates()
        case .fields: fields()
        case .barcodes: barcodes()
        case .nfc: nfc()
        case .webService: webService()
        case .relevance: relevance()
        case .styleSchemes: styleSchemes()
        case .schemeOnlyKeys: schemeOnlyKeys()
        case .olderSystemFallbacks: olderSystemFallbacks()
        case .upcomingPassInformation: upcomingPassInformation()
        case .semantics: semantics()
        case .futureKeys: futureKeys()
        case .values: values()
        }
    }
}

/// The rules on `pass.json`, in the order their findings are listed: the structural ones (``PassJSONValidator``)
/// first.
enum JSONRule: CaseIterable, Sendable {
    case requiredKeys, topLevelTypes, styleStructure, barcodeStructure, nfcStructure, placeStructure
    case identifiers, colors, dates, fields, barcodes, nfc, webService, relevance, styleSchemes, schemeOnlyKeys
    case olderSystemFallbacks, upcomingPassInformation, semantics, futureKeys, values

    /// The rules ``PassJSONValidator`` runs.
    static let structural: [JSONRule] = [.requiredKeys, .topLevelTypes, .styleStructure, .barcodeStructure, .nfcStructure, .placeStructure]
}
