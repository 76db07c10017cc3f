// `ErrorCode` and `CodedError`, which PropertyList's errors are made of, come with the module: a
// caller that imports PropertyList can name and match its error codes without importing FormatSupport.
@_exported import FormatSupport
