#ifndef SLUICE_YAJL_H
#define SLUICE_YAJL_H

#include <stddef.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

// yajl_config is variadic, which Swift cannot call: one non-variadic helper per option we use.
static inline int sluice_yajl_config_flag(yajl_handle h, yajl_option opt, int on) {
    return yajl_config(h, opt, on);
}

// The parser's offset into the current chunk *while a callback runs*.
//
// yajl 2.x exposes yajl_get_bytes_consumed() only after yajl_parse() returns, but
// while it lexes it keeps the offset just past the current token in the handle's
// `bytesConsumed` field. Its private layout (src/yajl_parser.h) starts with five
// pointer-sized fields: callbacks, ctx, lexer, parseError, bytesConsumed. Reading it lets
// every record carry its exact position without re-lexing. The yajl compiled in is this
// target's own copy (README.md beside it), so the layout is checked where it is compiled
// (src/sluice_layout_check.c) and cannot change under us; and
// Tests/SluiceTests/Parsing/YajlLayoutTests.swift compares this read, taken inside every
// callback, with the real byte offsets of a known input split at every byte.
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

// Bytes yajl's lexer read again from its buffer of a token spanning chunks (src/yajl_lex.c):
// with the lexer resuming such a token where it stopped, a few per chunk boundary, not the
// token so far at every chunk. Tests read it to show that lexing a long token is linear.
size_t sluice_yajl_lex_bytes_relexed(const void *lexer);

static inline size_t sluice_yajl_bytes_relexed(yajl_handle h) {
    return sluice_yajl_lex_bytes_relexed(((const struct sluice_yajl_handle_prefix *)(const void *)h)->lexer);
}

#endif
