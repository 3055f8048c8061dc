#ifndef SLUICE_CLIBXML2_SHIM_H
#define SLUICE_CLIBXML2_SHIM_H

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

// libxml2 may declare xmlFree as a macro over a per-thread function pointer, which Swift
// cannot call: one plain function in its place.
static inline void sluice_xml_free(void *pointer) {
    xmlFree(pointer);
}

#endif
