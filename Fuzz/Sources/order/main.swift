import FuzzDriver
import Passmint
import PassmintPreview

/// `order.json` (the model, written back, the lint rules, the preview) and `.order` packages (the verifier).
runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let order = try? Order(data: bytes) { _ = try? order.data() }
    let findings = OrderLinter.lint(orderJSON: bytes)
    if let object = (try? JSONParser.value(bytes))?.objectValue {
        _ = OrderLinter.lint(json: object, previous: object)
        _ = OrderPreview(orderJSON: object, files: [], source: "fuzz").html()
    }
    _ = findings
    _ = OrderVerifier().verify(bytes, source: "fuzz.order")
    return 0
}
