// swift-tools-version:6.1
import PackageDescription

/// Ferry's benchmarks: programs that print figures. They are not tests and CI does not run them;
/// `Benchmarks/run.sh` builds them in release mode and prints the figures.
let package = Package(
    name: "FerryBenchmarks",
    dependencies: [.package(name: "Ferry", path: "..")],
    targets: [
        .executableTarget(
            name: "cancel-soak",
            dependencies: [
                .product(name: "HTTPUploadTransport", package: "Ferry"),
                .product(name: "UploadModel", package: "Ferry"), .product(name: "UploadEngine", package: "Ferry"),
                .product(name: "UploadJournal", package: "Ferry"),
            ]
        ),
        .executableTarget(
            name: "encode-benchmark",
            dependencies: [.product(name: "Multipart", package: "Ferry")]
        ),
        .executableTarget(
            name: "journal-benchmark",
            dependencies: [
                .product(name: "Multipart", package: "Ferry"), .product(name: "UploadModel", package: "Ferry"),
                .product(name: "UploadProtocols", package: "Ferry"), .product(name: "UploadEngine", package: "Ferry"),
                .product(name: "UploadJournal", package: "Ferry"),
            ]
        ),
        .executableTarget(
            name: "queue-memory-benchmark",
            dependencies: [
                .product(name: "FerryApp", package: "Ferry"),
                .product(name: "FerryRuntime", package: "Ferry"),
                .product(name: "TerminalUI", package: "Ferry"),
                .product(name: "UploadEngine", package: "Ferry"), .product(name: "UploadJournal", package: "Ferry"),
                .product(name: "HTTPUploadTransport", package: "Ferry"),
            ]
        ),
        .executableTarget(
            name: "render-benchmark",
            dependencies: [
                .product(name: "FerryApp", package: "Ferry"),
                .product(name: "FerryRuntime", package: "Ferry"),
                .product(name: "TerminalUI", package: "Ferry"),
                .product(name: "UploadModel", package: "Ferry"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
