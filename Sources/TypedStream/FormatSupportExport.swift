// `ErrorCode` and `CodedError`, which TypedStream's errors are made of, come with the module: a
// caller that imports TypedStream can name and match its error codes without importing FormatSupport.
@_exported import FormatSupport
