#include "CDynamicLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void describe(char *error, size_t capacity, const char *format, const char *first, const char *second) {
    if (capacity > 0) snprintf(error, capacity, format, first, second);
}

bool archivist_dynamic_library_load(ArchivistDynamicLibrary *library, const char *soname, char *error, size_t capacity) {
    if (capacity > 0) error[0] = '\0';
    pthread_mutex_lock(&library->lock);
    bool loaded = atomic_load_explicit(&library->loaded, memory_order_relaxed);
    if (loaded && strcmp(library->loadedSoname, soname) == 0) {
        pthread_mutex_unlock(&library->lock);
        return true;
    }
    // RTLD_LOCAL: the library's symbols stay out of the global scope, so nothing else in the
    // process binds to them by accident. RTLD_LAZY, as the loader binds a linked library: the
    // functions Archivist calls are all looked up below, and RTLD_NOW bound every function of
    // the dependencies Debian builds without BIND_NOW (Kerberos, lz4, gmp…) at once: 1,600 more
    // relocations for `--version` (LD_DEBUG=statistics).
    void *handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        describe(error, capacity, "%s%s", reason ? reason : soname, reason ? "" : ": cannot be opened");
        pthread_mutex_unlock(&library->lock);
        return false;
    }
    for (size_t i = 0; i < library->count; i++) {
        void *function = dlsym(handle, library->symbols[i]);
        if (function == NULL) {
            describe(error, capacity, "%s has no function %s (too old a version?)", soname, library->symbols[i]);
            dlclose(handle);
            pthread_mutex_unlock(&library->lock);
            return false;
        }
        // Only the first library loaded is ever written: forwarders may be reading its pointers.
        if (!loaded) library->functions[i] = function;
    }
    if (loaded) {
        dlclose(handle);
    } else if (strlen(soname) < sizeof(library->loadedSoname)) {
        strcpy(library->loadedSoname, soname);
        atomic_store_explicit(&library->loaded, true, memory_order_release);
    } else {
        describe(error, capacity, "%s: a soname longer than %s bytes", soname, "63");
        dlclose(handle);
        pthread_mutex_unlock(&library->lock);
        return false;
    }
    pthread_mutex_unlock(&library->lock);
    return true;
}
