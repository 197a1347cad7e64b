// swift-tools-version: 6.0
// Fuzz targets for the parsers that read untrusted bytes, built with libFuzzer and AddressSanitizer:
//   scripts/fuzz.sh [seconds per target]   (see docs/limits.md)
// A package of its own, so that the main package's build never needs the fuzzer runtime.
import PackageDescription

let targets = ["json", "strings", "csv", "png", "zip", "zipwrite", "cms", "personalization", "order", "preview", "links", "service", "pay"]
/// The products a target needs besides `Passmint` (batch input, the preview, Apple Pay). Only what a target fuzzes is
/// built, with the sanitizers: the service's request parts are read in `Passmint` (beside the web-service protocol),
/// so no target needs the server and its graph (Hummingbird, NIO, PostgresNIO …).
let moreProducts = [
    "csv": ["PassmintBatch"], "order": ["PassmintPreview"], "preview": ["PassmintPreview"], "links": ["PassmintPreview"],
    "pay": ["PassmintPay"],
]

let package = Package(
    name: "passmint-fuzz",
    dependencies: [.package(name: "passmint", path: "..")],
    targets: [.target(name: "FuzzDriver", path: "Sources/FuzzDriver")]
        + targets.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: ["FuzzDriver", .product(name: "Passmint", package: "passmint")]
                    + (moreProducts[name] ?? []).map { .product(name: $0, package: "passmint") },
                path: "Sources/\(name)")
        }
)
