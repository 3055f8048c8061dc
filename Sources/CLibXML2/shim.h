#ifndef SLUICE_CLIBXML2_SHIM_H
#define SLUICE_CLIBXML2_SHIM_H

// The part of libxml2's interface that Sluice uses to read Core Data models, declared here
// rather than included: libxml2's headers need their own include path (`-I…/libxml2`), which
// only pkg-config gives, and pkg-config's flags would also link libxml2 into every program.
// Nothing is linked: the functions are found at run time (Sources/Sluice/CoreData/LibXML2.swift).
//
// The structures are the leading fields of libxml2's public `xmlNode`, `xmlAttr` and `xmlError`
// (tree.h, xmlerror.h), unchanged since libxml2 2.0; Sluice only reads them, through pointers
// libxml2 returns. Tests/SluiceTests/Model/LibXML2Tests.swift checks them against the headers
// when those are installed.

typedef unsigned char sluice_xmlChar;

/// xmlElementType's values that Sluice reads.
enum {
    SLUICE_XML_ELEMENT_NODE = 1,
    SLUICE_XML_TEXT_NODE = 3,
    SLUICE_XML_CDATA_SECTION_NODE = 4,
    SLUICE_XML_ENTITY_REF_NODE = 5,
};

/// xmlParserOption's values that Sluice sets.
enum {
    SLUICE_XML_PARSE_NOERROR = 1 << 5,
    SLUICE_XML_PARSE_NOWARNING = 1 << 6,
    SLUICE_XML_PARSE_NONET = 1 << 11,
};

struct sluice_xmlAttr;

/// The fields every node of libxml2's tree begins with, an attribute as an element (tree.h
/// declares `xmlAttr` to start as `xmlNode` does, so that code walks either).
#define SLUICE_XML_NODE_HEAD \
    void *_private; \
    int type; \
    const sluice_xmlChar *name; \
    struct sluice_xmlNode *children; \
    struct sluice_xmlNode *last; \
    struct sluice_xmlNode *parent;

typedef struct sluice_xmlNode {
    SLUICE_XML_NODE_HEAD
    struct sluice_xmlNode *next;
    struct sluice_xmlNode *prev;
    void *doc;
    void *ns;
    sluice_xmlChar *content;
    struct sluice_xmlAttr *properties;
} sluice_xmlNode;

typedef struct sluice_xmlAttr {
    SLUICE_XML_NODE_HEAD
    struct sluice_xmlAttr *next;
} sluice_xmlAttr;

#undef SLUICE_XML_NODE_HEAD

typedef struct sluice_xmlError {
    int domain;
    int code;
    char *message;
    int level;
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2;
} sluice_xmlError;

#endif
