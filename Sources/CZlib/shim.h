#ifndef ARCHIVIST_CZLIB_SHIM_H
#define ARCHIVIST_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 and deflateInit2 are macros that pass ZLIB_VERSION and the stream's size; Swift
// cannot call a function-like macro, so these wrappers do it. A window of -15 means raw DEFLATE
// (RFC 1951): no zlib header and no Adler-32 trailer, which is how Core Data stores Z_MODELCACHE.
static inline int archivist_inflate_init_raw(z_streamp stream) {
    return inflateInit2(stream, -15);
}

static inline int archivist_deflate_init_raw(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}
#endif
