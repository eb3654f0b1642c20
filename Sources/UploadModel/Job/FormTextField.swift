import Multipart

/// A text parameter sent with every upload of a job (`-F name=value`).
public typealias FormTextField = NameValuePair
