import Foundation
import Passmint

extension GoogleMappingContext {
    /// What every style shares: names, colour, images, barcode, locations, dates, sharing, grouping.
    mutating func mapCommon() {
        handledKeys.formUnion(["organizationName", "logoText"])
        if style != .generic {
            classBody["issuerName"] = .string(organizationName)
            classBody["reviewStatus"] = "UNDER_REVIEW"
            if let key = pass["organizationName"]?.stringValue, localizer.isTranslated(key) {
                classBody["localizedIssuerName"] = localized(key)
            }
        }
        mapColor()
        mapImages()
        mapBarcode()
        mapLocations()
        mapDates()
        if pass["sharingProhibited"]?.boolValue == true {
            handledKeys.insert("sharingProhibited")
            classBody["multipleDevicesAndHoldersAllowedStatus"] = "ONE_USER_ALL_DEVICES"
            objectBody["passConstraints"] = ["screenshotEligibility": "INELIGIBLE"]
        }
        if let group = pass["groupingIdentifier"]?.stringValue {
            handledKeys.insert("groupingIdentifier")
            objectBody["groupingInfo"] = ["groupingId": .string(group)]
        }
    }

    private mutating func mapColor() {
        guard let color = pass["backgroundColor"]?.stringValue else { return }
        handledKeys.insert("backgroundColor")
        guard let hex = WalletColor(color)?.hex else {
            return report(
                "backgroundColor", "\(color) is not an rgb(r, g, b) colour, so Google shows its default colour", fix: "write rgb(r, g, b)")
        }
        // Generic passes take the colour on the object, every other style on the class.
        if style == .generic { objectBody["hexBackgroundColor"] = .string(hex) } else { classBody["hexBackgroundColor"] = .string(hex) }
    }

    private mutating func mapBarcode() {
        var barcodes = pass["barcodes"]?.arrayValue ?? []
        if barcodes.isEmpty, let legacy = pass["barcode"] { barcodes = [legacy] }
        handledKeys.formUnion(["barcodes", "barcode"])
        guard let first = barcodes.first?.objectValue, let message = first["message"]?.stringValue else { return }
        let types = [
            "PKBarcodeFormatQR": "QR_CODE", "PKBarcodeFormatPDF417": "PDF_417", "PKBarcodeFormatAztec": "AZTEC",
            "PKBarcodeFormatCode128": "CODE_128",
        ]
        let format = first["format"]?.stringValue ?? ""
        guard let type = types[format] else {
            return report("barcodes[0].format", "\(format) has no Google barcode type", fix: "use QR, PDF417, Aztec or Code 128")
        }
        var barcode: JSONObject = ["type": .string(type), "value": .string(message)]
        if let alt = first["altText"]?.stringValue { barcode["alternateText"] = .string(localizer.text(alt)) }
        objectBody["barcode"] = .object(barcode)
        for index in barcodes.indices.dropFirst() {
            report(
                "barcodes[\(index)]", "Google shows one barcode; this fallback barcode is not sent",
                fix: "nothing to do: the first barcode is shown")
        }
    }

    private mutating func mapLocations() {
        guard let locations = pass["locations"]?.arrayValue, !locations.isEmpty else { return }
        handledKeys.insert("locations")
        guard style != .generic else {
            return report(
                "locations", "Google's generic passes have no locations", fix: "use another style, or accept no lock-screen hints")
        }
        var points: [JSONValue] = []
        for (index, location) in locations.enumerated() {
            guard let latitude = location["latitude"], let longitude = location["longitude"] else { continue }
            points.append(["latitude": latitude, "longitude": longitude])
            if location["relevantText"] != nil {
                report("locations[\(index)].relevantText", "Google writes its own lock-screen text near a location", fix: "nothing to do")
            }
            if location["altitude"] != nil {
                report("locations[\(index)].altitude", "Google's locations have no altitude", fix: "nothing to do")
            }
        }
        objectBody["locations"] = .array(points)
    }

    private mutating func mapDates() {
        let relevant = pass["relevantDates"]?.arrayValue ?? []
        let start = relevant.first?["startDate"]?.stringValue ?? relevant.first?["date"]?.stringValue ?? pass["relevantDate"]?.stringValue
        let end = pass["expirationDate"]?.stringValue ?? relevant.last?["endDate"]?.stringValue
        handledKeys.formUnion(["relevantDates", "relevantDate", "expirationDate"])
        var interval = JSONObject()
        if let start { interval["start"] = ["date": .string(start)] }
        if let end { interval["end"] = ["date": .string(end)] }
        if !interval.keys.isEmpty { objectBody["validTimeInterval"] = .object(interval) }
        if relevant.count > 1 {
            report("relevantDates", "Google keeps one validity interval: from the first relevant date to the last", fix: "nothing to do")
        }
    }
}
