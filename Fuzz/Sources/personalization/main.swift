import FuzzDriver
import Passmint

/// `personalization.json` in a template, and the body a device posts to sign up for a rewards pass.
runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? PersonalizationRequest(bytes: bytes)
    if let object = (try? JSONParser.value(bytes))?.objectValue { _ = try? PersonalizationInfo(json: object) }
    return 0
}
