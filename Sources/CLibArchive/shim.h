#ifndef ARCHIVIST_CLIBARCHIVE_SHIM_H
#define ARCHIVIST_CLIBARCHIVE_SHIM_H
// libarchive reads tar (plain, gzip, bzip2, xz) and zip through one streaming API; Sweep
// uses it to look inside device extractions without unpacking them to disk.
#include <archive.h>
#include <archive_entry.h>
#endif
