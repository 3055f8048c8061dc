/* The parser's ceiling: yajl over a file in 1 MiB chunks with callbacks that only count
 * events (what Sluice's parser does before any record is assembled).
 *   cc -O2 yajl_parse.c -lyajl -o yajl_parse && ./yajl_parse input.json                    */
#include <yajl/yajl_parse.h>
#include <stdio.h>

static long events;
static int on_null(void *c) { events++; return 1; }
static int on_bool(void *c, int b) { events++; return 1; }
static int on_number(void *c, const char *s, size_t l) { events++; return 1; }
static int on_string(void *c, const unsigned char *s, size_t l) { events++; return 1; }
static int on_event(void *c) { events++; return 1; }

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: yajl_parse FILE\n"); return 64; }
    static const yajl_callbacks callbacks = {
        on_null, on_bool, NULL, NULL, on_number, on_string, on_event, on_string, on_event, on_event, on_event};
    yajl_handle handle = yajl_alloc(&callbacks, NULL, NULL);
    yajl_config(handle, yajl_allow_multiple_values, 1);
    FILE *in = fopen(argv[1], "rb");
    if (!in) { perror(argv[1]); return 66; }
    static unsigned char buffer[1 << 20];
    size_t count;
    while ((count = fread(buffer, 1, sizeof buffer, in)) > 0) {
        if (yajl_parse(handle, buffer, count) != yajl_status_ok) { fprintf(stderr, "yajl_parse: invalid JSON\n"); return 65; }
    }
    if (yajl_complete_parse(handle) != yajl_status_ok) { fprintf(stderr, "yajl_parse: invalid JSON\n"); return 65; }
    yajl_free(handle);
    fprintf(stderr, "yajl_parse: %ld events\n", events);
    return 0;
}
