#include "CXMLReaderRegistration.h"

// Defined in Swift, in PropertyListXML (`@_cdecl`): hands its libxml2 reader to PropertyList's
// registration point (`XMLReaderRegistration`).
extern void archivist_register_xml_property_list_reader(void);

// Runs once, when the image that links PropertyListXML is loaded, before `main` (ELF
// `.init_array`, Mach-O `__mod_init_func`): so every program, test bundle or library that links
// the module reads XML from its first instruction, whichever entry point it calls.
__attribute__((constructor))
static void archivist_load_xml_property_list_reader(void) {
    archivist_register_xml_property_list_reader();
}
