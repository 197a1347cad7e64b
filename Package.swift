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
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Passmint", targets: ["Passmint"]),
        .executable(name: "passmint", targets: ["PassmintCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
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
        .target(
            name: "Passmint",
            dependencies: ["CPassmintOpenSSL", "CPassmintZip"],
            resources: [.copy("Resources/AppleCertificates")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PassmintCLI",
            dependencies: [
                "Passmint",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PassmintTestSupport",
            dependencies: ["Passmint"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintTests",
            dependencies: ["Passmint", "PassmintTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PassmintCLITests",
            dependencies: ["Passmint", "PassmintTestSupport"],
            swiftSettings: swiftSettings
        ),
    ]
)
