#ifndef ARCHIVIST_CXMLREADERREGISTRATION_H
#define ARCHIVIST_CXMLREADERREGISTRATION_H
// Nothing to call: this target only runs XMLReaderLoading.c's constructor, which registers
// PropertyListXML's reader with PropertyList as the program (or library) is loaded. Linking
// PropertyListXML is what makes XML readable; no code has to ask for it.
#endif
