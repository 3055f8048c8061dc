#ifndef SLUICE_CYAJL_SHIM_H
#define SLUICE_CYAJL_SHIM_H

#include <stddef.h>
#include <yajl/yajl_parse.h>

// yajl_config is variadic, which Swift cannot call: one non-variadic helper per option we use.
static inline int sluice_yajl_config_flag(yajl_handle h, yajl_option opt, int on) {
    return yajl_config(h, opt, on);
}

// The parser's offset into the current chunk *while a callback runs*.
//
// yajl 2.x exposes yajl_get_bytes_consumed() only after yajl_parse() returns, but
// while it lexes it keeps the offset just past the current token in the handle's
// `bytesConsumed` field. Its private layout (yajl_parser.h, unchanged since 2.0.0 in
// 2011 and in the 2.1.0 that every distribution ships) starts with five
// pointer-sized fields: callbacks, ctx, lexer, parseError, bytesConsumed.
// Reading it lets every record carry its exact position without re-lexing.
// Tests/SluiceTests/Parsing/YajlLayoutTests.swift pins this down: it compares this read, taken
// inside every callback, with the real byte offsets of a known input split at every byte, so a
// yajl with another layout fails loudly.
struct sluice_yajl_handle_prefix {
    const void *callbacks;
    void *ctx;
    void *lexer;
    const char *parseError;
    size_t bytesConsumed;
};

static inline size_t sluice_yajl_offset_in_chunk(yajl_handle h) {
    return ((const struct sluice_yajl_handle_prefix *)(const void *)h)->bytesConsumed;
}

#endif
