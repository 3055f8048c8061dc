/* Forwards to the public header: yajl's sources include "api/yajl_parse.h", its install puts
 * the headers in include/yajl/ (see ../../README.md). */
#include <yajl/yajl_parse.h>
