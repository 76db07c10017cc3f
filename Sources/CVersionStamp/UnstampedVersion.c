#include "CVersionStamp.h"

// Weak: StampedVersion.c, when make has written it, defines the same function and the linker
// takes that one. Nothing stamped the build otherwise, which the empty text says.
__attribute__((weak)) const char *archivist_version_stamp(void) {
    return "";
}
