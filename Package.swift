// swift-tools-version:6.1
import PackageDescription

#if !os(Linux)
#error("Ferry builds on Linux only (it calls Glibc and ncursesw directly); see README.")
#endif

/// Ferry: a terminal uploader for `multipart/form-data`.
///
/// Linux only: the code calls Glibc and ncursesw directly. SwiftPM cannot declare Linux as the
/// only platform, so no `platforms:` entry claims another one and the manifest refuses to load
/// elsewhere.
///
/// Layering (see ARCHITECTURE.md): `FileSystem` (the POSIX file layer) ← `Multipart` (pure
/// encoder) ← `UploadModel` (values) ← `UploadProtocols` (the wire's meaning, the `UploadTransport`
/// protocol) ← `UploadEngine` (queue machine, Dispatch manager) ← `UploadJournal` (SQLite); no NIO in
/// any of them. `HTTPUploadTransport` (the HTTP client on SwiftNIO) and `FerryApp` (pure app model)
/// ← `ferry` (wiring: it hands the transport and the journal to the manager). `TerminalUI` is pure; `NcursesBackend` is the
/// only code touching the terminal; `Receiver` is `ferry serve` (on `FileSystem`).
let package = Package(
    name: "Ferry",
    products: [
        .executable(name: "ferry", targets: ["ferry"]),
        .library(name: "Multipart", targets: ["Multipart"]),
        .library(name: "UploadModel", targets: ["UploadModel"]),
        .library(name: "UploadProtocols", targets: ["UploadProtocols"]),
        .library(name: "UploadEngine", targets: ["UploadEngine"]),
        .library(name: "UploadJournal", targets: ["UploadJournal"]),
        .library(name: "HTTPUploadTransport", targets: ["HTTPUploadTransport"]),
        .library(name: "FerryApp", targets: ["FerryApp"]),
        .library(name: "FerryRuntime", targets: ["FerryRuntime"]),
        .library(name: "FerryHeadless", targets: ["FerryHeadless"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        // For Fuzz/ (libFuzzer targets for the receiver's multipart reader); not an API.
        .library(name: "Receiver", targets: ["Receiver"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // No default traits: `FullFoundation` would link all of Foundation (and ICU) into `ferry`,
        // `ConfigurationSupport` swift-configuration; Ferry uses neither.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // What Ferry ships besides its code: the MIME table (compiled in) and where the demo's
        // sample files are. Not SwiftPM resources: their accessor needs Foundation's `Bundle`.
        .target(name: "FerryResources", path: "Resources", exclude: ["samples"]),
        // The POSIX file layer: names as lossless strings, stamps of what a file was, whole-file
        // reads, path strings, errno text. No terminal, no network.
        .target(name: "FileSystem"),
        // RFC 7578 multipart/form-data as a stream of chunks. No terminal, no network.
        .target(name: "Multipart", dependencies: ["FileSystem", "FerryResources"]),
        // TOML 1.0.0 read into an ordered document, and written back. No dependencies, no Foundation.
        .target(name: "TOML"),
        // JSON text read into values, pointers into them, and compact objects written out. No
        // dependencies.
        .target(name: "JSON"),
        // What an upload is: jobs, specs, files, attempts, answers, events, errors, the queue's
        // options, targets, connection options and profiles. The values the interface, the command
        // line and every other upload module share. No I/O.
        .target(name: "UploadModel", dependencies: ["FileSystem", "Multipart", "JSON"]),
        // What goes on the wire and what it means: request heads and form bodies, the
        // `UploadTransport` protocol, proxies (which, as curl decides), redirects, tus's and
        // resumable uploads' client machines, HTTP dates, S3 errors. Pure.
        .target(name: "UploadProtocols", dependencies: ["UploadModel", "FileSystem", "Multipart", "JSON"]),
        // The engine: the queue's state machine, the Dispatch-based `UploadManager` driving an
        // `UploadTransport`, timers, and the `JournalStore` protocol it persists through. No NIO,
        // no SQLite.
        .target(name: "UploadEngine", dependencies: ["UploadModel", "UploadProtocols", "FileSystem", "Multipart"]),
        // The SQLite journal: the `JournalStore` that keeps the queue across runs, its write-ahead
        // marks and its lock.
        .target(name: "UploadJournal", dependencies: [
            "UploadEngine", "UploadModel", "JSON", "FileSystem", "SQLiteDatabase",
        ]),
        // What the command line and the interface read from files and documents: endpoint profiles
        // (`profiles.toml`), header files (`-H @FILE`), presigned POST documents, and the
        // planning of `ferry send`'s jobs from its arguments.
        .target(name: "FerryConfig", dependencies: [
            "JSON", "UploadModel", "UploadProtocols", "FileSystem", "Multipart", "TOML",
        ]),
        // SQLite's C API (the system's libsqlite3).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The journal's SQLite layer: a connection, prepared statements, transactions, errors
        // with SQLite's message and code, and a serial queue owning one connection.
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite"]),
        // The real `UploadTransport`: Ferry's HTTP/1.1 + HTTP/2 client on SwiftNIO (attempt,
        // connection pool, HTTP/2, proxy tunnel, TLS).
        .target(
            name: "HTTPUploadTransport",
            dependencies: [
                "UploadModel",
                "UploadProtocols",
                "FileSystem",
                "Multipart",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                // tus's Upload-Checksum (SHA-256, SHA-1) of each chunk.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // `ferry serve`: the bundled receiving server.
        .target(
            name: "Receiver",
            dependencies: [
                "FileSystem",
                "Multipart",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Text for people: display widths, escaping, truncation, byte counts, sizes, speeds,
        // durations and dates. Shared by the interface and the headless commands.
        .target(name: "TextFormat"),
        // Pure terminal UI: cells, buffers, diff, widgets. No ncurses.
        .target(name: "TerminalUI", dependencies: ["TextFormat"]),
        // The ncurses C library, wide-character API, behind `cncurses_*` shims.
        .systemLibrary(name: "CNcursesw"),
        // The only module that talks to the terminal.
        .target(name: "NcursesBackend", dependencies: ["CNcursesw", "TerminalUI"]),
        // The interface's model: update(state, message) -> commands, view(state) -> buffer.
        .target(
            name: "FerryApp",
            dependencies: ["TerminalUI", "TextFormat", "UploadModel", "UploadProtocols", "FileSystem", "Multipart"]
        ),
        // The interface's runtime, where it can be tested: the loop (on a terminal protocol,
        // commands on a worker queue), folder reads and watches, the start-up policy, the
        // process side (termination signals, Ctrl-Z, the clipboard) as a protocol.
        .target(
            name: "FerryRuntime",
            dependencies: [
                "FerryApp", "FerryConfig", "TerminalUI", "TextFormat", "UploadModel", "UploadProtocols",
                "UploadEngine", "UploadJournal", "FileSystem", "Multipart",
            ]
        ),
        // The headless commands' side (`ferry send`, `ferry jobs`): FILE arguments, the event
        // printer, termination, the standard streams. Never imports the interface's model.
        .target(name: "FerryHeadless", dependencies: [
            "TextFormat", "JSON", "UploadModel", "UploadEngine", "UploadJournal", "FileSystem", "Multipart",
        ]),
        // The executable: wiring only.
        .executableTarget(
            name: "ferry",
            dependencies: [
                "FileSystem",
                "Multipart",
                "JSON",
                "UploadModel",
                "UploadProtocols",
                "UploadEngine",
                "UploadJournal",
                "FerryConfig",
                "HTTPUploadTransport",
                "Receiver",
                "TerminalUI",
                "TextFormat",
                "FerryApp",
                "FerryRuntime",
                "FerryHeadless",
                "NcursesBackend",
                "FerryResources",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the tests share: fakes (terminal, transport, scheduler), temporary files and folders,
        // the built binary and its processes, and the servers no one here wrote (nginx, tinyproxy,
        // SwiftNIO's resumable-upload server, Python's), started on 127.0.0.1.
        .target(
            name: "TestSupport", dependencies: [
                "TerminalUI", "TextFormat", "UploadModel", "UploadProtocols", "UploadEngine", "FileSystem", "Multipart",
                "FerryRuntime", "FerryHeadless",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // SwiftNIO's resumable-upload server, a counterpart for `--resumable`.
                .product(name: "NIOResumableUpload", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP2", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ], path: "Tests/TestSupport"
        ),
        .testTarget(name: "FileSystemTests", dependencies: ["FileSystem", "TestSupport"]),
        .testTarget(
            name: "MultipartTests",
            dependencies: [
                "FileSystem", "Multipart", "TestSupport", .product(name: "MultipartKit", package: "multipart-kit"),
            ]
        ),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "Receiver"]),
        .testTarget(name: "UploadModelTests", dependencies: ["UploadModel", "JSON", "Multipart", "TestSupport"]),
        .testTarget(name: "UploadProtocolsTests", dependencies: [
            "UploadProtocols", "UploadModel", "FileSystem", "Multipart", "TestSupport",
        ]),
        // The queue's machine and the manager on fakes, and on a real journal where what is kept
        // matters; the journal's faults through a double of its protocol.
        .testTarget(name: "UploadEngineTests", dependencies: [
            "UploadEngine", "UploadJournal", "UploadModel", "UploadProtocols", "FileSystem", "Multipart", "SQLiteDatabase",
            "TestSupport",
        ]),
        .testTarget(name: "UploadJournalTests", dependencies: [
            "UploadJournal", "UploadEngine", "UploadModel", "FileSystem", "Multipart", "SQLiteDatabase", "TestSupport",
        ]),
        // The HTTP client: its state machines and its handlers on `EmbeddedChannel`, then
        // (`AgainstServers/`) the transport and the manager against real servers: `ferry serve`'s
        // receiver, nginx, PHP, tinyproxy, tuspy's server, scripted sockets.
        .testTarget(
            name: "HTTPUploadTransportTests",
            dependencies: [
                "HTTPUploadTransport", "UploadModel", "UploadProtocols", "UploadEngine", "UploadJournal", "FileSystem",
                "Multipart", "Receiver", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
            ]
        ),
        // The child process that kills itself with SIGKILL mid-upload for `JournalCrashTests`.
        .executableTarget(name: "JournalCrashChild", dependencies: [
            "UploadModel", "UploadEngine", "UploadJournal", "TestSupport", "SQLiteDatabase",
        ], path: "Tests/JournalCrashChild"),
        .testTarget(name: "ReceiverTests", dependencies: [
            "Receiver", "TestSupport", "FileSystem", "Multipart", "TextFormat",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase", "TestSupport"]),
        .testTarget(name: "FerryConfigTests", dependencies: [
            "FerryConfig", "UploadModel", "UploadProtocols", "Multipart", "TestSupport",
        ]),
        .testTarget(name: "TextFormatTests", dependencies: ["TextFormat"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"]),
        .testTarget(name: "FerryRuntimeTests", dependencies: [
            "FerryRuntime", "FerryApp", "FerryConfig", "TerminalUI", "UploadModel", "UploadEngine", "UploadJournal",
            "FileSystem", "TestSupport", "SQLiteDatabase",
        ]),
        .testTarget(name: "FerryHeadlessTests", dependencies: [
            "FerryHeadless", "TextFormat", "JSON", "UploadModel", "Multipart", "TestSupport",
        ]),
        .testTarget(
            name: "FerryAppTests",
            dependencies: [
                "FerryApp", "TerminalUI", "TextFormat", "UploadModel", "UploadProtocols", "UploadEngine", "FileSystem",
                "TestSupport",
            ]
        ),
        // The built `ferry` binary as users run it, as an ordinary user: `ferry send`, `ferry jobs`
        // and the interface in tmux, against `ferry serve` and servers no one here wrote; its
        // journal read back with `UploadJournal`.
        .testTarget(name: "EndToEndTests", dependencies: [
            "UploadModel", "UploadProtocols", "UploadEngine", "UploadJournal", "FileSystem", "Multipart", "Receiver",
            "SQLiteDatabase", "TestSupport", .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
