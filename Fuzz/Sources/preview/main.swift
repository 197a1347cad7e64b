import Foundation
import FuzzDriver
import Passmint
import PassmintPreview

/// A preview of any `pass.json`: read leniently, every value formatted, every barcode drawn by zint, the page written.
runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let (json, diagnostics) = PassContents.parse(passJSON: bytes)
    let contents = PassContents(source: "fuzz", passJSON: json, files: [], isTemplate: false, readingDiagnostics: diagnostics)
    let options = PassPreview.Options(
        language: "fr", timeZone: TimeZone(identifier: "UTC")!, now: Date(timeIntervalSince1970: 1_780_000_000))
    _ = PassPreview(contents: contents).html(options)
    return 0
}
