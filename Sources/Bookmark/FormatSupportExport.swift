// `ErrorCode` and `CodedError`, which Bookmark's errors are made of, come with the module: a
// caller that imports Bookmark can name and match its error codes without importing FormatSupport.
@_exported import FormatSupport
