#ifndef ARCHIVIST_CDYNAMICLIBRARY_H
#define ARCHIVIST_CDYNAMICLIBRARY_H
// A C library opened with dlopen the first time a command needs it, rather than linked: libpq
// and libarchive (and the dozens of libraries they pull in: OpenSSL, Kerberos, LDAP, lzma, zstd…)
// cost every archivist process about 3 ms to map and relocate at start-up, though only the
// PostgreSQL commands and sweep's zips and tars call them (docs/architecture.md, "Libraries
// loaded on first use"). CLibPQ and CLibArchive each define the functions Archivist calls as
// forwarders to the pointers this fills; this file is only for them, never for Swift.
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/// One library loaded on demand: its functions by name, and the pointers to them once loaded.
typedef struct {
    /// The library's usual name ("libpq"), for messages.
    const char *name;
    /// The functions to look up, in the order of `functions`.
    const char *const *symbols;
    /// Where their addresses go, `count` of them; written once, before `loaded` is set.
    void **functions;
    size_t count;
    /// The soname the functions came from, once loaded.
    char loadedSoname[64];
    /// Set (release) after `functions` is filled and never cleared: a forwarder that reads it set
    /// (acquire) sees every pointer.
    atomic_bool loaded;
    pthread_mutex_t lock;
} ArchivistDynamicLibrary;

#define ARCHIVIST_DYNAMIC_LIBRARY(name, symbols, functions) \
    { (name), (symbols), (functions), sizeof(functions) / sizeof((functions)[0]), "", false, PTHREAD_MUTEX_INITIALIZER }

/// A library's table, from the X-macro `LIST(X)` that names its functions: `index_FUNCTION` for
/// each, their names and pointers, `variable`, the library (`name` for messages), and
/// `bool load(const char *soname, char *error, size_t capacity)`, which opens it
/// (`archivist_dynamic_library_load`). The forwarders call `ARCHIVIST_REAL(variable, FUNCTION)`.
#define ARCHIVIST_DYNAMIC_LIBRARY_TABLE(LIST, variable, name, load)                                \
    enum { LIST(ARCHIVIST_FUNCTION_INDEX_) variable##FunctionCount };                              \
    static const char *const variable##Symbols[] = { LIST(ARCHIVIST_FUNCTION_NAME_) };             \
    static void *variable##Functions[variable##FunctionCount];                                     \
    static ArchivistDynamicLibrary variable = ARCHIVIST_DYNAMIC_LIBRARY(name, variable##Symbols, variable##Functions); \
    bool load(const char *soname, char *error, size_t capacity) {                                  \
        return archivist_dynamic_library_load(&variable, soname, error, capacity);                 \
    }
#define ARCHIVIST_FUNCTION_INDEX_(function) index_##function,
#define ARCHIVIST_FUNCTION_NAME_(function) #function,

/// `library`'s `function`, typed as the header declares it, or NULL while it is not loaded.
#define ARCHIVIST_REAL(library, function) ((__typeof__(function) *)archivist_dynamic_function(&(library), index_##function))

/// Opens `soname` and looks up every function of `library`; true when they can all be called.
///
/// The first soname that loads is the one the forwarders call from then on; a later call with
/// that soname returns true at once. Another soname is opened and checked all the same (and
/// closed again when the library is loaded already), so that the answer is about that soname
/// whatever happened before. On failure `error` (`capacity` bytes, may be 0) says why: the
/// loader's message, or the function the library lacks. Thread-safe.
bool archivist_dynamic_library_load(ArchivistDynamicLibrary *library, const char *soname, char *error, size_t capacity);

/// The function at `index` in `library`'s list, or NULL while the library is not loaded (each
/// forwarder then returns its library's failure value: NULL, -1 or its error status).
static inline void *archivist_dynamic_function(ArchivistDynamicLibrary *library, size_t index) {
    return atomic_load_explicit(&library->loaded, memory_order_acquire) ? library->functions[index] : NULL;
}

/// The part of an ELF note (systemd's "dlopen metadata", https://systemd.io/ELF_DLOPEN_METADATA/)
/// that names, inside the executable, a library it opens with dlopen: packaging reads it as it
/// reads the NEEDED entries (scripts/deb-depends), so the soname is written once, here beside
/// the loader that opens it.
#define ARCHIVIST_DLOPEN_NOTE(variable, json)                                            \
    __attribute__((used, section(".note.dlopen"))) _Alignas(4) static const struct {     \
        struct { unsigned int nameSize, descriptionSize, type; } header;                 \
        char owner[4];                                                                   \
        _Alignas(4) char description[sizeof(json)];                                     \
    } variable = { { 4, sizeof(json), 0x407c0c0a }, "FDO", json }

#endif
