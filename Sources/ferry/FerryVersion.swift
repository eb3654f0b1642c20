/// Ferry's version, as `ferry --version` and every subcommand's `--version` print it.
enum FerryVersion {
    /// The release this source tree is.
    static let current = "0.9.0"
}
