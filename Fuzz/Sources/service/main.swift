import FuzzDriver

@testable import Passmint

/// The service's request bodies and the request parts it reads itself: JSON Lines of a bulk change
/// (`POST /api/v1/updates`), the images of an issue or PATCH body (base64 PNGs), a device's log body, a registration's
/// push token, and the `passesUpdatedSince` and `If-Modified-Since` values. Their parsers live in the library, beside
/// the web-service protocol, so this target needs no server; the scripts build it in debug, where `@testable` reaches
/// their `package` declarations.
runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true).prefix(64) {
        _ = BulkUpdateLine.parse(line)
        let text = String(decoding: line, as: UTF8.self)
        _ = HTTPDate.parse(text)
        _ = UpdateTag.since(Substring(text))
        _ = PathComponent.isValid(text)
    }
    guard let object = (try? JSONParser.value(bytes))?.objectValue else { return 0 }
    if let images = object["images"]?.objectValue { _ = try? PassImages.uploaded(images) }
    for message in object["logs"]?.arrayValue ?? [] { _ = LogBody.escaped(message.stringValue ?? "") }
    if let token = object["pushToken"]?.stringValue { _ = PathComponent.isValid(token) }
    return 0
}
