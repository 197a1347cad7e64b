// swift-tools-version: 6.2
import PackageDescription

// Passmint's benchmarks, kept out of the root package's products: they use the root package only through its
// products, as any other program would, and bring their own stand-ins.
//   swift build --package-path Benchmarks -c release
// The root package is named so that its identity does not depend on the name of the folder it was cloned into.

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "passmint-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "passmint", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"5.0.0"),
    ],
    targets: [
        // What both benchmarks need: the repository, folders, programs run to the end, a development signing chain.
        .target(name: "BenchSupport", swiftSettings: swiftSettings),
        // The campaign benchmark (scripts/bench-campaign.sh) with its own multi-threaded APNs stand-in.
        .executableTarget(
            name: "PassmintCampaign",
            dependencies: [
                "BenchSupport",
                .product(name: "Passmint", package: "passmint"),
                .product(name: "PassmintPush", package: "passmint"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        // The Google Wallet benchmark (scripts/bench-google.sh) with its own multi-threaded Google stand-in; it drives
        // `passmint serve` over HTTP only, so it needs no product of the root package.
        .executableTarget(
            name: "PassmintGoogleBench",
            dependencies: [
                "BenchSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
