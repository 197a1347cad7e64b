import Foundation
import FuzzDriver

@testable import Passmint
@testable import PassmintServer

/// The service's request bodies and the request parts it reads itself: JSON Lines of a bulk change
/// (`POST /api/v1/updates`), the images of an issue or PATCH body (base64 PNGs), a device's log body, a registration's
/// push token, and the `passesUpdatedSince` and `If-Modified-Since` values. (Scripts build the fuzz targets in debug,
/// where `@testable` reaches the server's internal parsers.)
let storePath = FileManager.default.temporaryDirectory.appendingPathComponent("passmint-fuzz-service-\(getpid()).sqlite").path
let library = PassImageLibrary(store: try! openPassStore(url: storePath).store)

/// Decoding runs on the service's CPU threads (async); the fuzzer's thread waits for it (it is not the cooperative pool).
func decodeWaiting(_ images: JSONObject) {
    let done = DispatchSemaphore(value: 0)
    Task {
        _ = try? await library.decode(images)
        done.signal()
    }
    done.wait()
}

runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: true).prefix(64) {
        _ = BulkUpdateLine.parse(line)
        let text = String(decoding: line, as: UTF8.self)
        _ = HTTPDate.parse(text)
        _ = DeviceAnswers.since(Substring(text))
        _ = PathComponent.isValid(text)
    }
    guard let object = (try? JSONParser.value(bytes))?.objectValue else { return 0 }
    if let images = object["images"]?.objectValue { decodeWaiting(images) }
    for message in object["logs"]?.arrayValue ?? [] { _ = DeviceLogBook.escaped(message.stringValue ?? "") }
    if let token = object["pushToken"]?.stringValue { _ = PathComponent.isValid(token) }
    return 0
}
