// `ErrorCode` and `CodedError`, which NIBArchive's errors are made of, come with the module: a
// caller that imports NIBArchive can name and match its error codes without importing FormatSupport.
@_exported import FormatSupport
