// swift-tools-version:6.0
// libFuzzer harness for healthetl. Its own package so the main package's build, tests and CI never see it.
// Build and run it with ../scripts/fuzz (it passes -sanitize=fuzzer,address to every target, so the library
// itself is instrumented for coverage, not only the harness).
import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which differs between clones (`main`, `healthetl`, …).
let mainPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "healthetl-fuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "HealthETLFuzz",
            // The product holds every library target of the main package.
            dependencies: [.product(name: "HealthETL", package: mainPackage)],
            // libFuzzer provides `main`; the harness only defines LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    ]
)
