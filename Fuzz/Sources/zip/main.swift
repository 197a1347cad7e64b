import FuzzDriver
import Passmint

/// The ZIP reader, and what `lint` does with a `.pkpass` from anyone: read it within its limits, then lint it.
runFuzzer { data, size in
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ZipArchive.read(bytes, source: "fuzz.pkpass")
    if let contents = try? PassContents.load(pkpass: bytes, source: "fuzz.pkpass") { _ = PassLinter.lint(contents) }
    return 0
}
