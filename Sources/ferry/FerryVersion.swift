import UploadModel

/// Ferry's version, as `ferry --version` and every subcommand's `--version` print it.
///
/// `scripts/install.sh` stamps the copy it installs with the commit it was built from
/// (`git describe --always --dirty`): it rewrites the field of ``stamp`` in the binary's bytes, in
/// place and at the same length, as Go's `-ldflags -X` sets a string at link time. So an installed
/// `ferry --version` says `0.9.0 (f930327)` while no build runs git and a plain `swift build` says
/// `0.9.0`.
enum FerryVersion {
    /// The release this source tree is.
    static let release = FerryRelease.version

    /// What `--version` prints: the release, and the build's commit when the binary is stamped.
    static var current: String {
        build.map { "\(release) (\($0))" } ?? release
    }

    /// The commit the binary was built from, when `scripts/install.sh` stamped it.
    static var build: String? {
        let bytes = UnsafeBufferPointer(start: stamp.utf8Start, count: stamp.utf8CodeUnitCount)
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasPrefix(stampPrefix), text.hasSuffix(stampSuffix) else { return nil }
        let field = text.dropFirst(stampPrefix.count).dropLast(stampSuffix.count).prefix { $0 != "~" }
        return field.isEmpty ? nil : String(field)
    }

    /// The stamp's first bytes, which `scripts/install.sh` looks for (exactly once) in the binary.
    private static let stampPrefix = "ferry-build-stamp:"

    /// The stamp's last bytes: a suffix no other string has, so the linker cannot merge another
    /// string into the field's tail.
    private static let stampSuffix = ":end-of-ferry-build-stamp"

    /// The stamp: the prefix, a field of 64 `~` (the commit, padded with `~`, which no Git name
    /// holds), the suffix.
    /// **Must** stay one literal of this layout: `scripts/install.sh` patches it.
    private static let stamp: StaticString =
        "ferry-build-stamp:~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~:end-of-ferry-build-stamp"
}
