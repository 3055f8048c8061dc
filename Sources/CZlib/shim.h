#ifndef SLUICE_CZLIB_SHIM_H
#define SLUICE_CZLIB_SHIM_H

#include <zlib.h>

// inflateInit2 is a macro over inflateInit2_ with version and struct size, which Swift cannot call.
static inline int sluice_inflate_init_gzip(z_stream *stream) {
    // 15 window bits + 16: expect a gzip header (not raw zlib).
    return inflateInit2(stream, 15 + 16);
}

// -15 window bits: raw deflate, no header or trailer (a zip entry's data).
static inline int sluice_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

#endif
