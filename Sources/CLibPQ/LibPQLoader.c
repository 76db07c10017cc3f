// libpq's functions that PostgresTable calls, each a forwarder to the function of the same name
// in the libpq this opens on first use (see CLibPQ.h and CDynamicLibrary.h). Each forwarder has
// the header's own prototype, so the compiler checks it against libpq-fe.h.
#include <stdio.h>
#include "CDynamicLibrary.h"
// Hidden: the forwarders are this executable's own functions, never exported, so that no library
// in the process (nor libpq itself) can bind to them instead of to libpq's.
#pragma GCC visibility push(hidden)
#include "CLibPQ.h"
#pragma GCC visibility pop

#define LIBPQ_FUNCTIONS(X) \
    X(PQclear) X(PQcmdTuples) X(PQconnectdbParams) X(PQconninfoFree) X(PQconninfoParse)       \
    X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQfinish) X(PQfreemem) X(PQftype)           \
    X(PQgetisnull) X(PQgetlength) X(PQgetvalue) X(PQlibVersion) X(PQnfields) X(PQntuples)     \
    X(PQpass) X(PQresultErrorField) X(PQresultErrorMessage) X(PQresultStatus)                 \
    X(PQserverVersion) X(PQsetNoticeProcessor) X(PQstatus) X(PQuser)

ARCHIVIST_DYNAMIC_LIBRARY_TABLE(LIBPQ_FUNCTIONS, libpq, "libpq", archivist_libpq_load)

ARCHIVIST_DLOPEN_NOTE(libpqNote,
    "[{\"feature\":\"postgresql\",\"description\":\"PostgreSQL tables: scan, migrate and status of postgres:// URLs\","
    "\"priority\":\"recommended\",\"soname\":[\"" ARCHIVIST_LIBPQ_SONAME "\"]}]");

/// libpq's `name`, or NULL while libpq is not loaded.
#define REAL(name) ARCHIVIST_REAL(libpq, name)
/// What PQerrorMessage and its kin say while libpq is not loaded.
static char notLoaded[] = "libpq is not loaded\n";

void PQclear(PGresult *res) {
    __typeof__(PQclear) *real = REAL(PQclear);
    if (real) real(res);
}

char *PQcmdTuples(PGresult *res) {
    __typeof__(PQcmdTuples) *real = REAL(PQcmdTuples);
    return real ? real(res) : NULL;
}

PGconn *PQconnectdbParams(const char *const *keywords, const char *const *values, int expand_dbname) {
    __typeof__(PQconnectdbParams) *real = REAL(PQconnectdbParams);
    return real ? real(keywords, values, expand_dbname) : NULL;
}

void PQconninfoFree(PQconninfoOption *connOptions) {
    __typeof__(PQconninfoFree) *real = REAL(PQconninfoFree);
    if (real) real(connOptions);
}

PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
    __typeof__(PQconninfoParse) *real = REAL(PQconninfoParse);
    if (real) return real(conninfo, errmsg);
    if (errmsg) *errmsg = NULL;
    return NULL;
}

char *PQerrorMessage(const PGconn *conn) {
    __typeof__(PQerrorMessage) *real = REAL(PQerrorMessage);
    return real ? real(conn) : notLoaded;
}

PGresult *PQexec(PGconn *conn, const char *query) {
    __typeof__(PQexec) *real = REAL(PQexec);
    return real ? real(conn, query) : NULL;
}

PGresult *PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                       const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                       int resultFormat) {
    __typeof__(PQexecParams) *real = REAL(PQexecParams);
    return real ? real(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat) : NULL;
}

void PQfinish(PGconn *conn) {
    __typeof__(PQfinish) *real = REAL(PQfinish);
    if (real) real(conn);
}

void PQfreemem(void *ptr) {
    __typeof__(PQfreemem) *real = REAL(PQfreemem);
    if (real) real(ptr);
}

Oid PQftype(const PGresult *res, int field_num) {
    __typeof__(PQftype) *real = REAL(PQftype);
    return real ? real(res, field_num) : InvalidOid;
}

int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    __typeof__(PQgetisnull) *real = REAL(PQgetisnull);
    return real ? real(res, tup_num, field_num) : 1;
}

int PQgetlength(const PGresult *res, int tup_num, int field_num) {
    __typeof__(PQgetlength) *real = REAL(PQgetlength);
    return real ? real(res, tup_num, field_num) : 0;
}

char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    __typeof__(PQgetvalue) *real = REAL(PQgetvalue);
    return real ? real(res, tup_num, field_num) : NULL;
}

int PQlibVersion(void) {
    __typeof__(PQlibVersion) *real = REAL(PQlibVersion);
    return real ? real() : 0;
}

int PQnfields(const PGresult *res) {
    __typeof__(PQnfields) *real = REAL(PQnfields);
    return real ? real(res) : 0;
}

int PQntuples(const PGresult *res) {
    __typeof__(PQntuples) *real = REAL(PQntuples);
    return real ? real(res) : 0;
}

char *PQpass(const PGconn *conn) {
    __typeof__(PQpass) *real = REAL(PQpass);
    return real ? real(conn) : NULL;
}

char *PQresultErrorField(const PGresult *res, int fieldcode) {
    __typeof__(PQresultErrorField) *real = REAL(PQresultErrorField);
    return real ? real(res, fieldcode) : NULL;
}

char *PQresultErrorMessage(const PGresult *res) {
    __typeof__(PQresultErrorMessage) *real = REAL(PQresultErrorMessage);
    return real ? real(res) : notLoaded;
}

ExecStatusType PQresultStatus(const PGresult *res) {
    __typeof__(PQresultStatus) *real = REAL(PQresultStatus);
    return real ? real(res) : PGRES_FATAL_ERROR;
}

int PQserverVersion(const PGconn *conn) {
    __typeof__(PQserverVersion) *real = REAL(PQserverVersion);
    return real ? real(conn) : 0;
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    __typeof__(PQsetNoticeProcessor) *real = REAL(PQsetNoticeProcessor);
    return real ? real(conn, proc, arg) : NULL;
}

ConnStatusType PQstatus(const PGconn *conn) {
    __typeof__(PQstatus) *real = REAL(PQstatus);
    return real ? real(conn) : CONNECTION_BAD;
}

char *PQuser(const PGconn *conn) {
    __typeof__(PQuser) *real = REAL(PQuser);
    return real ? real(conn) : NULL;
}
