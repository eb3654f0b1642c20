// swift-tools-version:6.1
import PackageDescription

/// Ferry's libFuzzer targets (issue 24). Not tests and not run by CI: `Fuzz/run.sh [SECONDS]`
/// (or `Benchmarks/run.sh fuzz [SECONDS]`) builds them with
/// `-sanitize=fuzzer,address -parse-as-library -enable-testing` and runs each for SECONDS,
/// printing executions, coverage and findings. `-enable-testing` lets the targets reach the
/// main package's internal types with `@testable import` (the multipart reader, the response
/// state machine, the journal's JSON writer).
///
/// Every target is one `LLVMFuzzerTestOneInput` (`@_cdecl`); libFuzzer supplies `main`.
let package = Package(
    name: "FerryFuzz",
    dependencies: [
        .package(name: "Ferry", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // What every target shares: libFuzzer's driver entry and `require`.
        .target(name: "FuzzSupport"),
        // The receiver's FormDataReader (on FormDataParser) on a body.
        .executableTarget(name: "FuzzReceiverMultipart", dependencies: [
            "FuzzSupport",
            .product(name: "Receiver", package: "Ferry"), .product(name: "Multipart", package: "Ferry"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        // HeaderValue, PartHeaders, SafeFilename and FormDataParser on one part's headers.
        .executableTarget(name: "FuzzReceiverHeaders", dependencies: [
            "FuzzSupport",
            .product(name: "Receiver", package: "Ferry"), .product(name: "Multipart", package: "Ferry"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        // The client's response head handling: NIO's HTTPResponseDecoder on an EmbeddedChannel
        // driving ExchangeStateMachine, TransferErrorMapping, KeepAliveHint, ProxyConnectAnswer.
        .executableTarget(name: "FuzzResponseHead", dependencies: [
            "FuzzSupport",
            .product(name: "HTTPUploadTransport", package: "Ferry"), .product(name: "UploadModel", package: "Ferry"),
            .product(name: "Multipart", package: "Ferry"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // curl -F syntax: CurlFormArgument.parse.
        .executableTarget(name: "FuzzCurlForm", dependencies: [
            "FuzzSupport", .product(name: "Multipart", package: "Ferry"),
        ]),
        // The journal's JSON columns: decode, and JournalJSON's writer round-trips.
        .executableTarget(name: "FuzzJournalJSON", dependencies: [
            "FuzzSupport",
            .product(name: "UploadModel", package: "Ferry"), .product(name: "UploadJournal", package: "Ferry"),
            .product(name: "Multipart", package: "Ferry"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
