/* Sluice's own file, not yajl's: checks, where the vendored yajl is compiled, that the handle
 * prefix sluice_yajl.h reads (`bytesConsumed`, the offset past the token being delivered) is
 * laid out as yajl's handle is. A yajl changed otherwise fails to compile here. */
#include <stddef.h>
#include "yajl_parser.h"
#include <sluice_yajl.h>

_Static_assert(offsetof(struct yajl_handle_t, bytesConsumed)
                   == offsetof(struct sluice_yajl_handle_prefix, bytesConsumed),
               "sluice_yajl_offset_in_chunk reads bytesConsumed where yajl's handle does not keep it");
_Static_assert(sizeof(((struct yajl_handle_t *)0)->bytesConsumed) == sizeof(size_t),
               "yajl's bytesConsumed is not a size_t");
