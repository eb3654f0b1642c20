import Multipart

/// One row of an editable list of the form: a parameter (`key = value`) or a header
/// (`Name: value`); it goes into a job's spec as it is.
public typealias FormRow = NameValuePair
