#ifndef ARCHIVIST_CLIBPQ_SHIM_H
#define ARCHIVIST_CLIBPQ_SHIM_H
// libpq, PostgreSQL's C client (Debian's libpq-dev): the connection conventions every
// PostgreSQL user relies on (PGHOST…, ~/.pgpass, sslmode, Unix sockets) come with it.
#include <libpq-fe.h>
// PG_VERSION_NUM: the version of the headers (libpq-dev ships pg_config.h beside libpq-fe.h).
#include <pg_config.h>
#endif
