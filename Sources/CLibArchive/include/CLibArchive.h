#ifndef ARCHIVIST_CLIBARCHIVE_H
#define ARCHIVIST_CLIBARCHIVE_H
// libarchive reads tar (plain, gzip, bzip2, xz) and zip through one streaming API; Sweep
// uses it to look inside device extractions without unpacking them to disk.
// It is not linked: LibArchiveLoader.c opens it the first time a sweep meets a zip or a tar and
// defines the functions Sweep calls as forwarders (docs/architecture.md, "Libraries loaded on
// first use"). Call archivist_libarchive_load before any of them.
#include <stdbool.h>
#include <stddef.h>
#include <archive.h>
#include <archive_entry.h>

/// The library the executable opens (the one Debian's libarchive13 ships).
#define ARCHIVIST_LIBARCHIVE_SONAME "libarchive.so.13"
/// The Debian package that ships it, for messages.
#define ARCHIVIST_LIBARCHIVE_PACKAGE "libarchive13"

/// Opens libarchive from `soname` (normally ARCHIVIST_LIBARCHIVE_SONAME) unless it is loaded
/// already; true when its functions can be called. On failure `error` (`capacity` bytes) says
/// why. Until it returns true, every archive_… function Sweep uses fails: NULL, ARCHIVE_FATAL, -1.
bool archivist_libarchive_load(const char *soname, char *error, size_t capacity);

#endif
