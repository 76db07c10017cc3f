#ifndef ARCHIVIST_CLIBXML2_SHIM_H
#define ARCHIVIST_CLIBXML2_SHIM_H
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would include the system's ICU
// headers, whose UErrorCode clashes with the copy inside Foundation (_FoundationICU) in any
// Swift file that imports both. Archivist never touches encoding handlers, the only structs
// whose layout depends on this macro (we only ever hold pointers to them), so the headers are
// read as if libxml2 had been built without ICU.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>

// xmlParserVersion is a function-like macro when libxml2 is built with threads, which Swift
// cannot call: this reads it.
static inline const char *archivist_libxml2_loaded_version(void) {
    return xmlParserVersion;
}
#endif
