#ifndef ARCHIVIST_FUZZ_DRIVER_H
#define ARCHIVIST_FUZZ_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's own driver (FuzzerDriver.cpp), for programs that have a `main` of their own.
///
/// SwiftPM renames a Swift executable's entry point and points `main` at it, so libFuzzer's
/// `main` is never linked in; each fuzz target's top-level code calls this instead.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
