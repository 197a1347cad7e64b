import Foundation

extension OrderVerifier {
    /// The detached signature over the manifest, its signing time, the intermediate, the signer (an Order Type ID
    /// certificate for this order's type and the expected team) and the chain.
    func checkSignature(_ bytes: [UInt8]?, manifest: [UInt8], order: JSONObject?, now: Date, report: inout VerificationReport) {
        guard case (let inspection, let signer)? = report.inspectSignature(bytes, manifest: manifest) else { return }
        if inspection.otherCertificates.contains(where: { PassSignature.issued($0, signer) }) {
            report.add("intermediate", .passed, "carries the WWDR intermediate that issued the signer")
        } else {
            report.add(
                "intermediate", .failed,
                "the signature does not carry the intermediate that issued the signer (\(signer.issuerCommonName ?? signer.issuer)); include the WWDR intermediate"
            )
        }
        report.add(PassVerifier.signerValidity(signer, signingTime: inspection.signingTime, now: now))
        report.add(signerIdentity(signer, order: order))
        report.addChain(signer, inspection, root: root)
    }

    /// An Order Type ID certificate (UID `order.…`) for the order's `orderTypeIdentifier`, of the expected team.
    private func signerIdentity(_ signer: Certificate, order: JSONObject?) -> VerificationReport.Check {
        let uid = signer.userID ?? "(none)"
        let ou = signer.organizationalUnit ?? "(none)"
        let type = order?["orderTypeIdentifier"]?.stringValue ?? "(none)"
        var problems: [String] = []
        if !uid.hasPrefix("order.") {
            problems.append(
                "the signer's UID is \"\(uid)\", not an Order Type ID (order.…): \(uid.hasPrefix("pass.") ? "a Pass Type ID certificate cannot sign orders; " : "")sign with the Order Type ID certificate"
            )
        } else if uid != type {
            problems.append("the signer's UID is \"\(uid)\" but order.json has orderTypeIdentifier \"\(type)\"")
        }
        if let team, team != ou { problems.append("the signer's OU (team) is \"\(ou)\", expected \"\(team)\"") }
        guard problems.isEmpty else { return .init(name: "signer-identity", status: .failed, detail: problems.joined(separator: "; ")) }
        return .init(name: "signer-identity", status: .passed, detail: "Order Type ID certificate \(uid) of team \(ou) matches the order")
    }
}
