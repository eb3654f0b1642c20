/// A header line: a name and a value, as written on the wire (`Name: value`).
public typealias HeaderField = NameValuePair
