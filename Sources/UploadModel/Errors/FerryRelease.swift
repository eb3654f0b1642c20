/// The release this source tree is: what `ferry --version` prints (with the build's commit when
/// `scripts/install.sh` stamped it) and what `User-Agent` names.
public enum FerryRelease {
    /// The release's number.
    public static let version = "0.9.0"
}
