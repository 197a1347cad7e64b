// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "passmint",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Passmint", targets: ["Passmint"]),
        // The HTML preview of a pass and barcode drawing (libzint, libqrencode).
        .library(name: "PassmintPreview", targets: ["PassmintPreview"]),
        // Issuing passes in bulk from CSV or JSON Lines, with the file-system and allocator tuning it needs.
        .library(name: "PassmintBatch", targets: ["PassmintBatch"]),
        // The web service, for embedding it in another Swift server.
        .library(name: "PassmintServer", targets: ["PassmintServer"]),
        // Google Wallet: classes and objects from the same templates, OAuth for a service account, save links.
        .library(name: "PassmintGoogle", targets: ["PassmintGoogle"]),
        // The APNs client (HTTP/2, certificate or provider token), for a server that pushes on its own; the campaign
        // benchmark (PassmintCampaign) measures it.
        .library(name: "PassmintPush", targets: ["PassmintPush"]),
        // Apple Pay on the server: verifies and decrypts payment tokens (EC_v1, RSA_v1) with libcrypto.
        .library(name: "PassmintPay", targets: ["PassmintPay"]),
        .executable(name: "passmint", targets: ["PassmintCLI"]),
        // Signs one pass with the Passmint product alone: the test script checks what it links.
        .executable(name: "passmint-example-sign", targets: ["PassmintExampleSign"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        // serve's settings: the environment and a JSON config file (the default trait, JSON, only).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.0"),
        // Already in the graph through postgres-nio: the store hashes device identifiers for its events (HMAC-SHA256).
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"5.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CPassmintOpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .systemLibrary(
            name: "CPassmintZip",
            pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"]), .brew(["libzip"])]
        ),
        .systemLibrary(
            name: "CPassmintPNG",
            pkgConfig: "spng",
            providers: [.apt(["libspng-dev"]), .brew(["libspng"])]
        ),
        .systemLibrary(
            name: "CPassmintQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        .systemLibrary(
            name: "CPassmintSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(name: "CPassmintMalloc"),
        .systemLibrary(name: "CPassmintFiles"),
        .systemLibrary(name: "CPassmintZint", providers: [.apt(["libzint-dev"]), .brew(["zint"])]),
        .target(
            name: "Passmint",
            dependencies: ["CPassmintOpenSSL", "CPassmintZip", "CPassmintPNG"],
            resources: [.copy("Resources/AppleCertificates")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintPay",
            dependencies: ["Passmint", "CPassmintOpenSSL"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintPreview",
            dependencies: ["Passmint", "CPassmintQRencode", "CPassmintZint"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintBatch",
            dependencies: ["Passmint", "CPassmintZip", "CPassmintMalloc", "CPassmintFiles"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PassmintExampleSign",
            dependencies: ["Passmint"],
            path: "Examples/SignPass",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintStore",
            dependencies: [
                "CPassmintSQLite", .product(name: "Logging", package: "swift-log"), .product(name: "Crypto", package: "swift-crypto"),
                // ShutdownWait: a stopping node does not wait for a store call an outage holds.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintStorePostgres",
            dependencies: [
                "PassmintStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintPush",
            dependencies: [
                "Passmint",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The service's outbound HTTP/1.1 client (keep-alive pools, pipelining): webhooks, payments, Google Wallet.
        .target(
            name: "PassmintHTTP",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintGoogle",
            dependencies: [
                "Passmint", "PassmintHTTP",
                // Verifies Google's save/delete callbacks (ECDSA P-256).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintServer",
            dependencies: [
                "Passmint", "PassmintPreview", "PassmintBatch", "PassmintStore", "PassmintStorePostgres", "PassmintPush",
                "PassmintGoogle", "PassmintPay", "PassmintHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The HTTP/1 pipeline with the service's handlers before the conversion to HTTPTypes (ServiceHTTPChannel).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                // The hash of a request sent with an Idempotency-Key (streamed: uploads are large).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            // The OpenAPI description of /api/v1, served at /api/v1/openapi.json.
            resources: [.copy("Resources/openapi.json")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PassmintCLI",
            dependencies: [
                "Passmint", "PassmintPreview", "PassmintBatch", "PassmintServer", "PassmintPush", "PassmintGoogle", "PassmintPay",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintTestSupport",
            dependencies: [
                "Passmint", "CPassmintOpenSSL", "CPassmintPNG",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The benchmarks' drivers (sources in Benchmarks/), in the same build graph as the tests so that nothing is
        // compiled twice, and in no product: their stand-ins are the tests' own (PassmintTestSupport).
        .target(name: "BenchSupport", path: "Benchmarks/Sources/BenchSupport", swiftSettings: swiftSettings),
        // The campaign benchmark (scripts/bench-campaign.sh; CampaignTests runs it small).
        .executableTarget(
            name: "PassmintCampaign",
            dependencies: [
                "BenchSupport", "Passmint", "PassmintPush", "PassmintTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/Sources/PassmintCampaign",
            swiftSettings: swiftSettings
        ),
        // The Google Wallet benchmark (scripts/bench-google.sh): drives `passmint serve` over HTTP only.
        .executableTarget(
            name: "PassmintGoogleBench",
            dependencies: [
                "BenchSupport", "Passmint", "PassmintTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/Sources/PassmintGoogleBench",
            swiftSettings: swiftSettings
        ),
        // Swift Testing traits the test targets share (kept out of PassmintTestSupport, which the benchmarks link).
        .target(name: "PassmintTestTraits", path: "Tests/PassmintTestTraits", swiftSettings: swiftSettings),
        .testTarget(
            name: "PassmintTests",
            dependencies: ["Passmint", "PassmintTestSupport", "PassmintTestTraits"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintPreviewTests",
            dependencies: ["Passmint", "PassmintPreview", "PassmintTestSupport", "PassmintTestTraits"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintBatchTests",
            dependencies: ["Passmint", "PassmintBatch", "PassmintTestSupport", "PassmintTestTraits"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintServerTests",
            dependencies: [
                "Passmint", "PassmintBatch", "PassmintTestSupport", "PassmintStore", "PassmintStorePostgres", "PassmintPush",
                "PassmintServer", "PassmintGoogle", "PassmintPay",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintHTTPTests",
            dependencies: [
                "PassmintHTTP", "PassmintTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintPayTests",
            dependencies: ["Passmint", "PassmintPay", "PassmintTestSupport", "PassmintTestTraits"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintGoogleTests",
            dependencies: ["Passmint", "PassmintGoogle", "PassmintHTTP", "PassmintTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintCLITests",
            dependencies: [
                "Passmint", "PassmintPreview", "PassmintBatch", "PassmintTestSupport", "PassmintTestTraits", "PassmintStore",
                "PassmintServer",
                // The commands, to check their parsing in-process (the executable's module, testable).
                "PassmintCLI", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
