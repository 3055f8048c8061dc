/* The storage floor of `docs/performance.md`: tab-separated stop times (as `sluice-fixtures --tsv` writes
 * them, so parsing costs next to nothing) inserted into SQLite with one prepared statement in
 * one transaction, journal and synchronous off. Same table and columns as models/flat.json.
 *   cc -O2 insert_loop.c -lsqlite3 -o insert_loop && ./insert_loop rows.tsv out.sqlite      */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int status, sqlite3 *db) {
    if (status != SQLITE_OK && status != SQLITE_DONE) {
        fprintf(stderr, "insert_loop: %s\n", sqlite3_errmsg(db));
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: insert_loop ROWS.tsv OUT.sqlite\n"); return 64; }
    FILE *in = fopen(argv[1], "r");
    if (!in) { perror(argv[1]); return 66; }
    sqlite3 *db;
    check(sqlite3_open(argv[2], &db), db);
    check(sqlite3_exec(db,
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
        "CREATE TABLE stop_times (\"pk\" INTEGER PRIMARY KEY, \"trip_id\" TEXT, \"arrival_time\" TEXT,"
        " \"departure_time\" TEXT, \"stop_id\" TEXT, \"stop_sequence\" INTEGER, \"pickup_type\" INTEGER,"
        " \"drop_off_type\" INTEGER, \"shape_dist_traveled\" REAL); BEGIN;", NULL, NULL, NULL), db);
    sqlite3_stmt *insert;
    check(sqlite3_prepare_v2(db, "INSERT INTO stop_times VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &insert, NULL), db);
    static char line[4096];
    long rows = 0;
    while (fgets(line, sizeof line, in)) {
        char *field[8];
        int count = 0;
        char *p = line;
        field[count++] = p;
        for (; *p && *p != '\n'; p++) {
            if (*p == '\t') { *p = 0; if (count < 8) field[count++] = p + 1; }
        }
        *p = 0;
        if (count != 8) { fprintf(stderr, "insert_loop: bad row %ld\n", rows + 1); return 65; }
        for (int i = 0; i < 4; i++) sqlite3_bind_text(insert, i + 1, field[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(insert, 5, strtoll(field[4], NULL, 10));
        for (int i = 5; i < 7; i++) {
            if (*field[i]) sqlite3_bind_int64(insert, i + 1, strtoll(field[i], NULL, 10));
            else sqlite3_bind_null(insert, i + 1);
        }
        sqlite3_bind_double(insert, 8, strtod(field[7], NULL));
        check(sqlite3_step(insert), db);
        sqlite3_reset(insert);
        rows++;
    }
    sqlite3_finalize(insert);
    check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db);
    sqlite3_close(db);
    fprintf(stderr, "insert_loop: %ld rows\n", rows);
    return 0;
}
