// CPrefetch is header-only (CPrefetch.h); SwiftPM needs one source file for a C target.
#include "CPrefetch.h"
