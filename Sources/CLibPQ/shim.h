#ifndef ARCHIVIST_CLIBPQ_SHIM_H
#define ARCHIVIST_CLIBPQ_SHIM_H
// libpq, PostgreSQL's C client (Debian's libpq-dev): the connection conventions every
// PostgreSQL user relies on (PGHOST…, ~/.pgpass, sslmode, Unix sockets) come with it.
#include <libpq-fe.h>
#endif
