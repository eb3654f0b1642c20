import Foundation

/// Files shipped with Ferry: the MIME table and the demo's sample files.
public enum BundledResources {
    /// Ferry's MIME table, in `/etc/mime.types` format.
    public static var mimeTypesURL: URL? {
        Bundle.module.url(forResource: "mime", withExtension: "types")
    }

    /// The folder of sample files that `ferry --demo` opens the browser on.
    public static var samplesDirectory: URL? {
        Bundle.module.url(forResource: "samples", withExtension: nil)
    }
}
