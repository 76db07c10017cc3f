// libarchive's functions that Sweep calls, each a forwarder to the function of the same name in
// the libarchive this opens on first use (see CLibArchive.h and CDynamicLibrary.h). Each
// forwarder has the header's own prototype, so the compiler checks it against archive.h.
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#include "CDynamicLibrary.h"
// Hidden: the forwarders are this executable's own functions, never exported, so that no library
// in the process (nor libarchive itself, nor a test that links libarchive to write containers)
// binds to them instead of to libarchive's.
#pragma GCC visibility push(hidden)
#include "CLibArchive.h"
#pragma GCC visibility pop

#define LIBARCHIVE_FUNCTIONS(X) \
    X(archive_entry_filetype) X(archive_entry_hardlink) X(archive_entry_is_encrypted)              \
    X(archive_entry_pathname) X(archive_entry_pathname_utf8) X(archive_entry_size)                 \
    X(archive_entry_size_is_set) X(archive_errno) X(archive_error_string) X(archive_filter_bytes)  \
    X(archive_format) X(archive_read_data) X(archive_read_data_skip) X(archive_read_free)          \
    X(archive_read_new) X(archive_read_next_header) X(archive_read_open2)                          \
    X(archive_read_open_filename) X(archive_read_support_filter_all)                               \
    X(archive_read_support_format_gnutar) X(archive_read_support_format_tar)                       \
    X(archive_read_support_format_zip) X(archive_read_support_format_zip_streamable)               \
    X(archive_version_number)

ARCHIVIST_DYNAMIC_LIBRARY_TABLE(LIBARCHIVE_FUNCTIONS, libarchive, "libarchive", archivist_libarchive_load)

ARCHIVIST_DLOPEN_NOTE(libarchiveNote,
    "[{\"feature\":\"containers\",\"description\":\"sweep of zips and tars\","
    "\"priority\":\"recommended\",\"soname\":[\"" ARCHIVIST_LIBARCHIVE_SONAME "\"]}]");

/// libarchive's `name`, or NULL while libarchive is not loaded.
#define REAL(name) ARCHIVIST_REAL(libarchive, name)

__LA_MODE_T archive_entry_filetype(struct archive_entry *entry) {
    __typeof__(archive_entry_filetype) *real = REAL(archive_entry_filetype);
    return real ? real(entry) : 0;
}

const char *archive_entry_hardlink(struct archive_entry *entry) {
    __typeof__(archive_entry_hardlink) *real = REAL(archive_entry_hardlink);
    return real ? real(entry) : NULL;
}

int archive_entry_is_encrypted(struct archive_entry *entry) {
    __typeof__(archive_entry_is_encrypted) *real = REAL(archive_entry_is_encrypted);
    return real ? real(entry) : 0;
}

const char *archive_entry_pathname(struct archive_entry *entry) {
    __typeof__(archive_entry_pathname) *real = REAL(archive_entry_pathname);
    return real ? real(entry) : NULL;
}

const char *archive_entry_pathname_utf8(struct archive_entry *entry) {
    __typeof__(archive_entry_pathname_utf8) *real = REAL(archive_entry_pathname_utf8);
    return real ? real(entry) : NULL;
}

la_int64_t archive_entry_size(struct archive_entry *entry) {
    __typeof__(archive_entry_size) *real = REAL(archive_entry_size);
    return real ? real(entry) : 0;
}

int archive_entry_size_is_set(struct archive_entry *entry) {
    __typeof__(archive_entry_size_is_set) *real = REAL(archive_entry_size_is_set);
    return real ? real(entry) : 0;
}

int archive_errno(struct archive *archive) {
    __typeof__(archive_errno) *real = REAL(archive_errno);
    return real ? real(archive) : -1;
}

const char *archive_error_string(struct archive *archive) {
    __typeof__(archive_error_string) *real = REAL(archive_error_string);
    return real ? real(archive) : "libarchive is not loaded";
}

la_int64_t archive_filter_bytes(struct archive *archive, int filter) {
    __typeof__(archive_filter_bytes) *real = REAL(archive_filter_bytes);
    return real ? real(archive, filter) : -1;
}

int archive_format(struct archive *archive) {
    __typeof__(archive_format) *real = REAL(archive_format);
    return real ? real(archive) : 0;
}

la_ssize_t archive_read_data(struct archive *archive, void *buffer, size_t size) {
    __typeof__(archive_read_data) *real = REAL(archive_read_data);
    return real ? real(archive, buffer, size) : ARCHIVE_FATAL;
}

int archive_read_data_skip(struct archive *archive) {
    __typeof__(archive_read_data_skip) *real = REAL(archive_read_data_skip);
    return real ? real(archive) : ARCHIVE_FATAL;
}

int archive_read_free(struct archive *archive) {
    __typeof__(archive_read_free) *real = REAL(archive_read_free);
    return real ? real(archive) : ARCHIVE_FATAL;
}

struct archive *archive_read_new(void) {
    __typeof__(archive_read_new) *real = REAL(archive_read_new);
    return real ? real() : NULL;
}

int archive_read_next_header(struct archive *archive, struct archive_entry **entry) {
    __typeof__(archive_read_next_header) *real = REAL(archive_read_next_header);
    return real ? real(archive, entry) : ARCHIVE_FATAL;
}

int archive_read_open2(struct archive *archive, void *client_data, archive_open_callback *open,
                       archive_read_callback *read, archive_skip_callback *skip, archive_close_callback *close) {
    __typeof__(archive_read_open2) *real = REAL(archive_read_open2);
    return real ? real(archive, client_data, open, read, skip, close) : ARCHIVE_FATAL;
}

int archive_read_open_filename(struct archive *archive, const char *filename, size_t block_size) {
    __typeof__(archive_read_open_filename) *real = REAL(archive_read_open_filename);
    return real ? real(archive, filename, block_size) : ARCHIVE_FATAL;
}

int archive_read_support_filter_all(struct archive *archive) {
    __typeof__(archive_read_support_filter_all) *real = REAL(archive_read_support_filter_all);
    return real ? real(archive) : ARCHIVE_FATAL;
}

int archive_read_support_format_gnutar(struct archive *archive) {
    __typeof__(archive_read_support_format_gnutar) *real = REAL(archive_read_support_format_gnutar);
    return real ? real(archive) : ARCHIVE_FATAL;
}

int archive_read_support_format_tar(struct archive *archive) {
    __typeof__(archive_read_support_format_tar) *real = REAL(archive_read_support_format_tar);
    return real ? real(archive) : ARCHIVE_FATAL;
}

int archive_read_support_format_zip(struct archive *archive) {
    __typeof__(archive_read_support_format_zip) *real = REAL(archive_read_support_format_zip);
    return real ? real(archive) : ARCHIVE_FATAL;
}

int archive_read_support_format_zip_streamable(struct archive *archive) {
    __typeof__(archive_read_support_format_zip_streamable) *real = REAL(archive_read_support_format_zip_streamable);
    return real ? real(archive) : ARCHIVE_FATAL;
}

int archive_version_number(void) {
    __typeof__(archive_version_number) *real = REAL(archive_version_number);
    return real ? real() : 0;
}
