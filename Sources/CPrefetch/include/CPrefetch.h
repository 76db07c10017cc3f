#ifndef ARCHIVIST_CPREFETCH_H
#define ARCHIVIST_CPREFETCH_H
// A hint that memory at `address` is about to be read or written: the binary writers look up
// scalars in a table far larger than the cache, and asking for the next few places while
// the current one is worked on overlaps their misses. Swift has no way to say this itself.
static inline void archivist_prefetch(const void *address) {
    __builtin_prefetch(address, 1, 3);
}
#endif
