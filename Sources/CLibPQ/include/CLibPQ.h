#ifndef ARCHIVIST_CLIBPQ_H
#define ARCHIVIST_CLIBPQ_H
// libpq, PostgreSQL's C client (Debian's libpq-dev): the connection conventions every
// PostgreSQL user relies on (PGHOST…, ~/.pgpass, sslmode, Unix sockets) come with it.
// It is not linked: LibPQLoader.c opens it the first time a command needs it and defines the
// functions PostgresTable calls as forwarders (docs/architecture.md, "Libraries loaded on first
// use"). Call archivist_libpq_load before any of them.
#include <stdbool.h>
#include <stddef.h>
#include <postgresql/libpq-fe.h>
// PG_VERSION_NUM: the version of the headers (libpq-dev ships pg_config.h beside libpq-fe.h).
#include <postgresql/pg_config.h>

/// The library the executable opens (the one Debian's libpq5 ships).
#define ARCHIVIST_LIBPQ_SONAME "libpq.so.5"
/// The Debian package that ships it, for messages.
#define ARCHIVIST_LIBPQ_PACKAGE "libpq5"

/// Opens libpq from `soname` (normally ARCHIVIST_LIBPQ_SONAME) unless it is loaded already; true
/// when its functions can be called. On failure `error` (`capacity` bytes) says why. Until it
/// returns true, every PQ… function fails as libpq does when out of memory: NULL, a bad status.
bool archivist_libpq_load(const char *soname, char *error, size_t capacity);

#endif
