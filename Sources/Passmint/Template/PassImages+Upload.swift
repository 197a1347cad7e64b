import Foundation

/// The per-pass images a request sends: the `"images"` member of an issue or `PATCH` body, or of a bulk change's line.
extension PassImages {
    /// One image of a request: its slot key (`thumbnail@2x`), and the checked file, or nil to drop the pass's own image
    /// of that slot (the template's shows again).
    package struct Uploaded: Sendable {
        package var key: String
        package var file: PassFile?
    }

    /// Reads `"images": {"thumbnail@2x": "<base64 PNG>", "strip": null}`, checking each image like a template image
    /// (``file(key:bytes:label:)``: a slot Wallet shows, a PNG whose header declares a size the slot may have, a whole
    /// PNG). Errors name the JSON path (`images.thumbnail@2x`).
    ///
    /// - Throws: ``PassmintError/Code/invalidData`` for a value that is neither base64 nor null (the request's shape is
    ///   wrong); ``PassmintError/Code/invalidImage`` for one that is not an image the slot may have.
    package static func uploaded(_ images: JSONObject, path: String = "images") throws(PassmintError) -> [Uploaded] {
        var uploaded: [Uploaded] = []
        for member in images {
            let label = "\(path).\(member.key)"
            let key = member.key.hasSuffix(".png") ? String(member.key.dropLast(4)) : member.key
            switch member.value {
            case .null:
                uploaded.append(Uploaded(key: key, file: nil))
            case .string(let text):
                guard let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !bytes.isEmpty else {
                    throw PassmintError(.invalidData, "\(label) is not base64: give the PNG file's bytes in base64")
                }
                uploaded.append(Uploaded(key: key, file: try file(key: key, bytes: [UInt8](bytes), label: label)))
            default:
                throw PassmintError(.invalidData, "\(label) must be a base64 PNG, or null to show the template's image again")
            }
        }
        return uploaded
    }
}
