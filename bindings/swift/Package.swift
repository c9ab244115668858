// swift-tools-version:6.0
// The Swift binding of libxsession. Tools version 6.0 compiles in the Swift 6 language mode
// (strict concurrency checking is on and its diagnostics are errors).
import PackageDescription

let package = Package(
    name: "XSession",
    // The newest API used is String(unsafeUninitializedCapacity:) (macOS 11); 13 is the floor
    // the README promises, the oldest release a current macOS app still supports in practice.
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "XSession", targets: ["XSession"]),
    ],
    targets: [
        // The C library, found through pkg-config (PKG_CONFIG_PATH=<build>/pkgconfig in this
        // repository's build tree; the installed xsession.pc elsewhere). The providers are what
        // SwiftPM suggests installing when pkg-config does not find it (Debian, Homebrew).
        .systemLibrary(
            name: "CXSession",
            path: "Sources/CXSession",
            pkgConfig: "xsession",
            providers: [.apt(["libxsession-dev"]), .brew(["xsession"])]
        ),
        .target(name: "XSession", dependencies: ["CXSession"]),
        .testTarget(name: "XSessionTests", dependencies: ["XSession", "CXSession"]),
    ]
)
