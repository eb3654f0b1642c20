import Multipart
import FuzzSupport

/// curl `-F` syntax (`CurlFormArgument.parse`) on arbitrary text.
///
/// Beyond "no crash": an argument that parses has a non-empty name without `=`, a `type` with a
/// `/`, a non-empty path for `@`/`<`; and it round-trips: written back with every word quoted
/// (`"` and `\` escaped) it parses to the same value. The round trip is checked only when every
/// Character of the written text is one Unicode scalar: Swift compares Characters, so a
/// combining mark right after a quote or `@` merges with it (a known limit of the Character-
/// based scanner, not a crash or a wrong value for any text a shell user types).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let parsed = try? CurlFormArgument.parse(text) else { return 0 }
    require(!parsed.name.isEmpty && !parsed.name.contains("="), "bad name \(parsed.name.debugDescription)")
    if let type = parsed.contentType { require(type.contains("/"), "type without / \(type.debugDescription)") }
    switch parsed.value {
    case .file(let path), .textFromFile(let path): require(!path.isEmpty, "empty path")
    case .text: break
    }
    let written = write(parsed)
    guard written.count == written.unicodeScalars.count else { return 0 }
    let again: CurlFormArgument
    do {
        again = try CurlFormArgument.parse(written)
    } catch {
        fatalError("\(written.debugDescription) (from \(text.debugDescription)) does not parse: \(error)")
    }
    require(again == parsed, "round trip: \(text.debugDescription) -> \(parsed) -> \(written.debugDescription) -> \(again)")
    return 0
}

private func quoted(_ word: String) -> String {
    var text = "\""
    for character in word {
        if character == "\"" || character == "\\" { text.append("\\") }
        text.append(character)
    }
    return text + "\""
}

private func write(_ argument: CurlFormArgument) -> String {
    var text = argument.name + "="
    switch argument.value {
    case .text(let value): text += quoted(value)
    case .file(let path): text += "@" + quoted(path)
    case .textFromFile(let path): text += "<" + quoted(path)
    }
    if let type = argument.contentType { text += ";type=" + quoted(type) }
    if let filename = argument.filename { text += ";filename=" + quoted(filename) }
    for header in argument.headers { text += ";headers=" + quoted(header.name + ": " + header.value) }
    return text
}

// SwiftPM renames this executable's `main` to `FuzzCurlForm_main`: libFuzzer's driver runs from here.
@_cdecl("FuzzCurlForm_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzerDriver(argc, argv) { fuzz($0, $1) }
}
