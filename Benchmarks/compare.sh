#!/usr/bin/env bash
# Sluice against the tools a user would pick instead, side by side in one run on the same
# generated input. `docs/performance.md` W1: the flat array of stop times, 3,000,000 rows at scale 1:
#
#   sluice          sluice import --model LargeFixtures/models/flat.json w1.json
#   sqlite3 shell   INSERT … SELECT … FROM json_each(readfile('w1.json'))
#   sqlite-utils    sqlite-utils insert --nl (the same rows as NDJSON: it streams only that)
#   duckdb          read_json into a SQLite file through the sqlite extension
#   c-insert        prepared inserts of the same rows from TSV, one per statement (Benchmarks/compare/insert_loop.c)
#   c-floor64       Benchmarks/peers/insert_floor64.c: 64 made-up rows per prepared INSERT (the storage floor)
#   c-floor         Benchmarks/peers/insert_floor.c: the same, one row per statement
#   yajl-parse      yajl over w1.json with no-op callbacks (the parser's ceiling; writes nothing),
#                   the vendored yajl Sluice links (Vendor/CYajl), compiled as SwiftPM compiles it
#
# The pipeline floor is the slower of yajl-parse and c-floor64. Prints wall time, peak RSS
# (/usr/bin/time -v) and ratios to Sluice, and checks that every tool that reads w1 wrote the
# same number of rows (the c-floor loops make their rows up: 3,000,000 at scale 1, W1's count
# substituted at other scales, rounded up to 64 by c-floor64).
#
# W2: the document shape, {"stop_times":[…],"trips":[…],"routes":[…],"stops":[…]} with every
# reference pointing forward (3,000,000 stop times, 100,000 trips, 1,000 routes, 13,000 stops
# at scale 1), into models/document.json's layout (identities, four to-one links):
#
#   sluice            sluice import --model LargeFixtures/models/document.json w2.json (cold)
#   sluice re-import  the same command again on the same database: must write nothing
#   sqlite3           the expert's script, Benchmarks/peers/w2_sqlite3.sql, run in the folder
#                     holding w2.json: its own tables, stops and trips read before the stop
#                     times, each stop time inserted with its links looked up
#   sqlite3 cdformat  the same script writing Core Data's file format (4 KiB pages, incremental
#                     auto-vacuum), Benchmarks/peers/w2_sqlite3_cdformat.sql: the like-for-like
#                     peer of "sluice coredata" (below), compared with its store as sqlite3's
#                     database is with Sluice's layout
#
# The expert's tables have other column names and no routes, so both databases are compared
# where they overlap: row counts of stop_times, trips and stops, non-null links of
# stop_times.trip_pk, stop_times.stop_pk and stops.parent_pk, and the rows themselves (their
# values, links compared by the target's identity). Checks that the re-import wrote no row.
#
# W3 (--workload w3): a GTFS feed, Benchmarks/peers/gen_gtfs.py's zip (13,000 stops, 900 routes,
# 100,000 trips, 3,000,000 stop times at scale 1), into the built-in GTFS model:
#
#   sluice            sluice import --model gtfs w3.zip (cold)
#   sluice re-import  the same command again on the same database: must write nothing
#   sqlite3           the expert's script, Benchmarks/peers/w3_sqlite3.sh w3.zip OUT.db: unzip,
#                     .import each file, build the linked tables with joins, then the indexes
#
# Both databases name their columns as the GTFS files do, so they are compared on the rows of
# stop_times, trips, routes and stops, the links stop_times.trip_pk and stop_pk, trips.route_pk
# and stops.parent_station_pk, and the rows themselves (links compared by the target's id).
#
# W3's weekly update (issue 53): the same feed a week later (gen_gtfs.py --week 2: about 5% of
# trips later, 1% withdrawn, 1% new, 2% of stops renamed), into a copy of the database holding
# week 1, and cold into a new database, in Sluice's layout and in a Core Data store
# (LargeFixtures/models/GTFS.xcdatamodel, --root per file):
#
#   sluice update       sluice import --delete-missing --model gtfs week2.zip, into week 1's database
#   sluice week 2       the cold import of week2.zip into a new database
#   coredata, coredata re-import, coredata update, coredata week 2: the same four into Core Data's store
#
# Each update must hold what the cold import of week 2 holds (every table's rows without their
# keys, each link as the row it points at), and its --stats must count exactly the rows the
# generator changed: per file, the ids of week 2 not in week 1 inserted, those of week 1 not
# in week 2 deleted, those whose row differs updated, as read from the two zips.
#
# Prints the targets as docs/performance.md states them: W1 <= 0.8x DuckDB and <= 1.5x the
# pipeline floor; W2 and W3 cold <= 0.5x the expert script; re-import <= 0.35x cold; peak RSS < 48 MiB;
# W3's update <= 0.5x the cold import of week 2 and the re-import below the update, in both layouts.
#
# Python tools go into a venv in a temporary folder, removed at the end with the inputs and
# databases; missing Debian packages (sqlite3, time, and for W1 gcc, libsqlite3-dev,
# python3-venv) are installed with apt-get. --only names W1's tools; of them
# "sluice" (cold and re-import) and "sqlite3" also run in W2, where "sluice" also imports W2 into
# a Core Data store (--layout coredata, LargeFixtures/models/Document.xcdatamodel, the same model
# as a Core Data model: "sluice coredata", at most 0.5x "sqlite3 cdformat" (the format's own
# cost against Sluice's layout, 1.12-1.18x, is accepted: issue 51), the same rows and links),
# and both into new files with --vacuum, as a seed store is made ("sluice --vacuum", "coredata
# --vacuum": their ratio, and their peak RSS < 48 MiB, the vacuum included).
# Exits 1 if a check fails.
#
# PostgreSQL (--workload pg, docs/postgresql.md): a throwaway PostgreSQL 15 cluster that the
# script starts itself (initdb and pg_ctl from /usr/lib/postgresql/15/bin or $SLUICE_PG_BIN, a
# temporary folder, a free port and a Unix socket; as root the server runs as the user
# postgres), every tool writing into a new database of it on each run:
#
#   sluice          sluice import --db postgresql://… --model LargeFixtures/models/flat.json w1.json
#   duckdb          DuckDB's read_json inserting through its postgres extension into the table
#                   Sluice writes: a bigint identity pk, its primary key added after the load
#                   (Benchmarks/peers/duck_w1_pg_pk.py, SPEC section 7's peer as written;
#                   duckdb and duckdb-ext-postgres from PyPI)
#   copy            psql's \copy of the same rows as CSV (made from w1.json with DuckDB before the
#                   timed part) into that same table, then its primary key: the floor
#
# Like for like: the three end with the same rows in a table of the same columns, types, identity
# and primary key. Then W2 into PostgreSQL: sluice cold, and the re-import, which must write
# nothing (checked with --stats, sluice_imports and the server's pg_stat_user_tables). Targets
# (SPEC section 7): W1 <= 1.0x DuckDB and <= 1.2x COPY; re-import <= 0.35x cold. Then W3 into
# PostgreSQL (issue 53): gen_gtfs.py's week 1 and week 2 (--week 2), --model gtfs:
#
#   sluice            sluice import --model gtfs w3.zip (cold)
#   sluice re-import  the same again: must write nothing (checked as W2's is)
#   sluice update     week 2 with --delete-missing into that database: checked once to equal a
#                     cold import of week 2 (rows, and links by the target's identity), and its
#                     --stats to be the rows week 2 inserts, changes and withdraws per file
#   psql              the expert's script, Benchmarks/peers/w3_psql.sh w3.zip URI: \copy of each
#                     file, the linked tables built with joins, then the indexes
#
# Targets: W3 cold <= 0.8x the psql script; update <= 0.5x cold; re-import below the update;
# peak RSS < 48 MiB. The server runs with fsync off
# (as every tool writes through it, the disk's flushes would only add noise); --only names
# the tools of W1 and W3's "psql" (default "sluice duckdb copy psql").
#
# This VM's wall times move by up to 30% from run to run, so every tool runs --runs times
# (default 3) in interleaved rounds, and the tables show each tool's median with the range;
# peak RSS is the largest of the runs.
#
# --bin DIR takes sluice and sluice-fixtures from DIR instead of building them in release mode
# (e.g. --bin .build/debug --scale 0.01 --runs 1, to check that the script runs; never for figures).
#
#   Benchmarks/compare.sh [--workload w1|w2|w3|all|pg] [--scale S] [--runs N] [--only "sluice duckdb ..."] [--bin DIR] [--keep]
set -euo pipefail
cd "$(dirname "$0")/.."
scale=1
only="sluice sqlite3 sqlite-utils duckdb c-insert c-floor c-floor64 yajl-parse"
keep=""
workload=all
runs=3
onlyGiven=""
bindir=""
usage() { echo "usage: $0 [--workload w1|w2|w3|all|pg] [--scale S] [--runs N] [--only \"TOOLS\"] [--bin DIR] [--keep]" >&2; exit 64; }
while [ $# -gt 0 ]; do
    case "$1" in
        --workload) workload=${2:-}; shift 2 || usage ;;
        --scale) scale=$2; shift 2 ;;
        --only) only=$2; onlyGiven=1; shift 2 ;;
        --runs) runs=${2:-}; shift 2 || usage; [[ "$runs" =~ ^[1-9][0-9]*$ ]] || usage ;;
        --keep) keep=1; shift ;;
        --bin) bindir=${2:-}; shift 2 || usage; [ -x "$bindir/sluice" ] || usage ;;
        *) usage ;;
    esac
done
pg=""
w3=""
case "$workload" in
    w1) w1=1; w2="" ;;
    w2) w1=""; w2=1 ;;
    w3) w1=""; w2=""; w3=1 ;;
    all) w1=1; w2=1; w3=1 ;;
    pg) w1=""; w2=""; pg=1; [ -n "$onlyGiven" ] || only="sluice duckdb copy psql" ;;
    *) usage ;;
esac
status=0

need=()
command -v sqlite3 >/dev/null || need+=(sqlite3)
[ -x /usr/bin/time ] || need+=(time)
[ -z "$w3" ] || command -v unzip >/dev/null || need+=(unzip)
if [ -n "$w1" ]; then
    command -v gcc >/dev/null || need+=(gcc)
    [ -e /usr/include/sqlite3.h ] || need+=(libsqlite3-dev)
    python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
fi
pgbin=${SLUICE_PG_BIN:-/usr/lib/postgresql/15/bin}
if [ -n "$pg" ]; then
    [ -x "$pgbin/initdb" ] || need+=(postgresql)
    command -v unzip >/dev/null || need+=(unzip)
    python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
fi
if [ ${#need[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sluice-compare.XXXXXX")
source Benchmarks/postgres-cluster.sh
cleanup() {
    stop_postgres
    [ -n "$keep" ] || rm -rf "$tmp"
}
trap cleanup EXIT
[ -z "$keep" ] || echo "keeping $tmp"

scratch=${SLUICE_SCRATCH:-.build-bench}
if [ -n "$bindir" ]; then
    bin=$bindir
    echo "using sluice and sluice-fixtures from $bin (built elsewhere: figures mean something only for a release build)" >&2
else
    echo "building sluice and sluice-fixtures (release)..." >&2
    swift build -c release --scratch-path "$scratch" --product sluice >/dev/null
    swift build -c release --scratch-path "$scratch" --product sluice-fixtures >/dev/null
    bin=$scratch/release
fi

timed() {  # name, command...: runs it under /usr/bin/time -v (output in $tmp/name.out); sets wall (s) and rss (KiB)
    local name=$1; shift
    echo "running $name..." >&2
    sync
    if ! /usr/bin/time -v -o "$tmp/$name.time" "$@" >"$tmp/$name.out" 2>&1; then
        echo "$name failed:" >&2; tail -5 "$tmp/$name.out" >&2
        return 1
    fi
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): \(.*\)/\1/p' "$tmp/$name.time" \
        | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): \([0-9]*\).*/\1/p' "$tmp/$name.time")
}

medians() {  # results file (name, seconds, KiB, rows per run): name, median, min, max, largest KiB, rows per tool
    python3 - "$1" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    name, seconds, kib, rows = (line.rstrip("\n").split("\t") + ["-"])[:4]
    runs.setdefault(name, []).append((seconds, kib, rows))
for name, results in runs.items():
    done = [r for r in results if r[0] != "failed"]
    if not done:
        print(f"{name}\tfailed\t-\t-\t-\t-")
        continue
    seconds = sorted(float(r[0]) for r in done)
    print(f"{name}\t{statistics.median(seconds)}\t{seconds[0]}\t{seconds[-1]}\t{max(int(r[1]) for r in done)}\t{done[0][2]}")
PY
}

record_table() {  # medians file, records: a workload's table of times, rates and peaks, against sluice
    awk -F'\t' -v records="$2" '
        NR == FNR { if ($1 == "sluice" && $2 != "failed") { base = $2; baseRss = $5 } ; next }
        FNR == 1 { printf "%-17s %9s %11s %10s %12s %12s %12s\n", "tool", "seconds", "range", "records/s", "peak RSS MiB", "time/sluice", "RSS/sluice" }
        $2 == "failed" { printf "%-17s %9s\n", $1, "failed"; next }
        {
            printf "%-17s %9.2f %11s %10s %12.1f %12s %12s\n", $1, $2, sprintf("%.1f-%.1f", $3, $4),
                ($2 > 0 ? sprintf("%.0f", records / $2) : "-"), $5 / 1024,
                base ? sprintf("%.2fx", $2 / base) : "-", baseRss ? sprintf("%.2fx", $5 / baseRss) : "-"
        }' "$1" "$1"
}

# awk functions printing one target of docs/performance.md per line: its wording, the result,
# and whether it is met. A ratio of "" is a tool that did not run.
targets='
    function ratio(a, b) { return (a in seconds) && (b in seconds) && seconds[b] > 0 ? seconds[a] / seconds[b] : "" }
    function target(text, value, limit, detail) {
        if (value == "") { printf "%-34s %10s\n", text, "-"; return }
        printf "%-34s %9.2fx  %-6s %s\n", text, value, value <= limit ? "met" : "MISSED", detail
    }
    function mib(text, kib) {
        if (kib == "") { printf "%-34s %10s\n", text, "-"; return }
        printf "%-34s %6.1f MiB  %-6s\n", text, kib / 1024, kib / 1024 < 48 ? "met" : "MISSED"
    }
'

round() {  # announces round $1 of $runs
    [ "$runs" = 1 ] || echo "round $1 of $runs" >&2
}

run() {  # name, database, command...
    local name=$1 database=$2; shift 2
    [[ " $only " == *" $name "* ]] || return 0
    local wall rss rows=-
    if ! timed "$name" "$@"; then
        printf '%s\tfailed\t-\t-\n' "$name" >>"$tmp/results"
        return 0
    fi
    if [ -n "$database" ]; then rows=$(sqlite3 "$database" 'SELECT count(*) FROM stop_times'); rm -f "$database"; fi
    printf '%s\t%s\t%s\t%s\n' "$name" "$wall" "$rss" "$rows" >>"$tmp/results"
}

if [ -n "$w1" ]; then
    gcc -O2 -o "$tmp/insert_loop" Benchmarks/compare/insert_loop.c -lsqlite3
    # The yajl Sluice links: its vendored sources (Vendor/CYajl), compiled as SwiftPM compiles
    # them (the toolchain's clang, -O2, NDEBUG).
    clang -O2 -DNDEBUG -I Vendor/CYajl/include -I Vendor/CYajl/src -o "$tmp/yajl_parse" Benchmarks/compare/yajl_parse.c \
        $(ls Vendor/CYajl/src/*.c | grep -v sluice_layout_check)
    # The peers' loops insert W1's 3,000,000 rows of scale 1; W1's count at any other scale
    # (30 stop times per trip, 100,000 trips at scale 1, as LargeFixtures rounds them).
    w1rows=$(awk -v s="$scale" 'BEGIN { t = int(100000 * s + 0.5); if (t < 1) t = 1; print t * 30 }')
    for floor in insert_floor insert_floor64; do
        sed "s/3000000/$w1rows/" "Benchmarks/peers/$floor.c" >"$tmp/$floor.c"
        gcc -O2 -o "$tmp/$floor" "$tmp/$floor.c" -lsqlite3
    done

    if [[ " $only " == *" sqlite-utils "* || " $only " == *" duckdb "* ]]; then
        echo "installing duckdb, duckdb-ext-sqlite and sqlite-utils into a temporary venv..." >&2
        python3 -m venv "$tmp/venv"
        "$tmp/venv/bin/pip" install -q duckdb==1.4.4 duckdb-ext-sqlite==1.4.4.20260205 sqlite-utils >&2
        extensions=$("$tmp/venv/bin/python" -c 'import duckdb_ext, os; print(os.path.join(list(duckdb_ext.__path__)[0], "extensions"))')
    fi

    echo "generating scale $scale..." >&2
    "$bin/sluice-fixtures" --shape flat --scale "$scale" --output "$tmp/w1.json"
    "$bin/sluice-fixtures" --shape ndjson --scale "$scale" --output "$tmp/w1.ndjson"
    "$bin/sluice-fixtures" --tsv --scale "$scale" --output "$tmp/w1.tsv"
    bytes=$(stat -c %s "$tmp/w1.json")
    sync

    columns='"trip_id" TEXT, "arrival_time" TEXT, "departure_time" TEXT, "stop_id" TEXT, "stop_sequence" INTEGER, "pickup_type" INTEGER, "drop_off_type" INTEGER, "shape_dist_traveled" REAL'
    cat > "$tmp/sqlite3.sql" <<SQL
PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
CREATE TABLE stop_times ("pk" INTEGER PRIMARY KEY, $columns);
INSERT INTO stop_times (trip_id, arrival_time, departure_time, stop_id, stop_sequence, pickup_type, drop_off_type, shape_dist_traveled)
  SELECT value->>'trip_id', value->>'arrival_time', value->>'departure_time', value->>'stop_id', value->>'stop_sequence',
         value->>'pickup_type', value->>'drop_off_type', value->>'shape_dist_traveled'
  FROM json_each(readfile('$tmp/w1.json'));
SQL

    : >"$tmp/results"
    for n in $(seq "$runs"); do
        round "$n"
        run sluice "$tmp/sluice.sqlite" "$bin/sluice" import --quiet --db "$tmp/sluice.sqlite" --model LargeFixtures/models/flat.json "$tmp/w1.json"
        run sqlite3 "$tmp/sqlite3.sqlite" sqlite3 "$tmp/sqlite3.sqlite" ".read $tmp/sqlite3.sql"
        run sqlite-utils "$tmp/su.sqlite" "$tmp/venv/bin/sqlite-utils" insert "$tmp/su.sqlite" stop_times "$tmp/w1.ndjson" --nl
        run duckdb "$tmp/duckdb.sqlite" "$tmp/venv/bin/python" Benchmarks/compare/duckdb_import.py sqlite "$tmp/w1.json" "$tmp/duckdb.sqlite" "${extensions:-}"
        run c-insert "$tmp/c.sqlite" "$tmp/insert_loop" "$tmp/w1.tsv" "$tmp/c.sqlite"
        # They write ins.db and ins64.db in the current folder.
        run c-floor "$tmp/ins.db" env -C "$tmp" "$tmp/insert_floor"
        run c-floor64 "$tmp/ins64.db" env -C "$tmp" "$tmp/insert_floor64"
        run yajl-parse "" "$tmp/yajl_parse" "$tmp/w1.json"
    done
    medians "$tmp/results" >"$tmp/medians"

    echo
    echo "W1: flat stop times, scale $scale, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') JSON; $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(date -u +%Y-%m-%d); median of $runs runs"
    awk -F'\t' '
        NR == FNR { if ($1 == "sluice" && $2 != "failed") { base = $2; baseRss = $5 } ; next }
        FNR == 1 { printf "%-13s %9s %11s %9s %12s %11s %12s %12s\n", "tool", "seconds", "range", "rows/s", "peak RSS MiB", "rows", "time/sluice", "RSS/sluice" }
        $2 == "failed" { printf "%-13s %9s\n", $1, "failed"; next }
        {
            rate = ($6 == "-" || $2 == 0) ? "-" : sprintf("%.0f", $6 / $2)
            printf "%-13s %9.1f %11s %9s %12.1f %11s %12s %12s\n", $1, $2, sprintf("%.1f-%.1f", $3, $4), rate, $5 / 1024, $6,
                base ? sprintf("%.2fx", $2 / base) : "-", baseRss ? sprintf("%.2fx", $5 / baseRss) : "-"
        }' "$tmp/medians" "$tmp/medians"
    echo
    awk -F'\t' "$targets"'
        $2 != "failed" { seconds[$1] = $2; rss[$1] = $5 }
        END {
            if (("yajl-parse" in seconds) && ("c-floor64" in seconds)) {
                floor = seconds["yajl-parse"] > seconds["c-floor64"] ? seconds["yajl-parse"] : seconds["c-floor64"]
                detail = sprintf("(floor %.1f s: yajl-parse %.1f s, c-floor64 %.1f s)", floor, seconds["yajl-parse"], seconds["c-floor64"])
            }
            target("W1 <= 0.8x DuckDB", ratio("sluice", "duckdb"), 0.8, "")
            target("W1 <= 1.5x the pipeline floor", ("sluice" in seconds) && floor > 0 ? seconds["sluice"] / floor : "", 1.5, detail)
            mib("W1 peak RSS < 48 MiB", rss["sluice"])
        }' "$tmp/medians"
    # Rows of the tools that read w1 (the c-floor loops make theirs up).
    awk -F'\t' '$4 != "-" && $4 != "" && $1 !~ /^c-floor/ { n[$4]++ } END { if (length(n) > 1) { print "WARNING: the tools wrote different row counts"; exit 1 } }' "$tmp/results" || status=1
fi

if [ -n "$w2" ]; then
    [ -z "$w1" ] || [ -n "$keep" ] || rm -f "$tmp/w1.json" "$tmp/w1.ndjson" "$tmp/w1.tsv"
    model=LargeFixtures/models/document.json
    doc=$tmp/w2.json
    sluicedb=$tmp/w2-sluice.sqlite
    shelldb=$tmp/w2-sqlite3.sqlite
    cdshelldb=$tmp/w2-sqlite3-cdformat.sqlite
    coredatadb=$tmp/w2-coredata.sqlite
    vacuumeddb=$tmp/w2-vacuumed.sqlite
    haveCoreData=""
    echo "generating W2 (document) at scale $scale..." >&2
    "$bin/sluice-fixtures" --shape document --scale "$scale" --counts --output "$doc" 2>"$tmp/w2.counts"
    bytes=$(stat -c %s "$doc")
    sync


    run2() {  # name, command...: a W2 run, kept in $tmp/results2 as name, seconds, KiB
        local name=$1 wall rss; shift
        if timed "w2-$name" "$@"; then
            printf '%s\t%s\t%s\n' "$name" "$wall" "$rss" >>"$tmp/results2"
        else
            printf '%s\tfailed\t-\n' "$name" >>"$tmp/results2"; status=1; return 1
        fi
    }
    tables() {  # database: a digest of every data table's content (not sluice_imports)
        sqlite3 "$1" '.sha3sum stop_times' '.sha3sum trips' '.sha3sum routes' '.sha3sum stops' | tr '\n' ' '
    }

    : >"$tmp/results2"
    haveSluice="" haveShell="" haveCDShell=""
    for n in $(seq "$runs"); do
        round "$n"
        rm -f "$sluicedb" "$shelldb"
        if [[ " $only " == *" sluice "* ]] &&
            run2 sluice "$bin/sluice" import --quiet --stats "$tmp/w2-cold.stats" --db "$sluicedb" --model "$model" "$doc"; then
            haveSluice=1
            before=$(tables "$sluicedb")
            if run2 "sluice re-import" "$bin/sluice" import --quiet --stats "$tmp/w2-reimport.stats" --db "$sluicedb" --model "$model" "$doc"; then
                after=$(tables "$sluicedb")
                logged=$(sqlite3 "$sluicedb" 'SELECT inserted, updated FROM sluice_imports ORDER BY id DESC LIMIT 1')
                totals=$(sqlite3 :memory: "SELECT json_extract(s, '\$.totals.inserted'), json_extract(s, '\$.totals.updated'),
                    json_extract(s, '\$.totals.deleted'), json_extract(s, '\$.totals.links') FROM (SELECT readfile('$tmp/w2-reimport.stats') AS s)")
                if [ "$logged" != "0|0" ] || [ "$totals" != "0|0|0|0" ] || [ "$before" != "$after" ]; then
                    echo "ERROR: the re-import wrote rows: sluice_imports inserted|updated = $logged," \
                        "--stats inserted|updated|deleted|links = $totals, tables $([ "$before" = "$after" ] && echo unchanged || echo CHANGED)"
                    status=1
                fi
            fi
        fi
        if [[ " $only " == *" sqlite3 "* ]] && run2 sqlite3 env -C "$tmp" sqlite3 -bail "$shelldb" ".read $PWD/Benchmarks/peers/w2_sqlite3.sql"; then
            haveShell=1
        fi
        rm -f "$cdshelldb"
        if [[ " $only " == *" sqlite3 "* ]] &&
            run2 "sqlite3 cdformat" env -C "$tmp" sqlite3 -bail "$cdshelldb" ".read $PWD/Benchmarks/peers/w2_sqlite3_cdformat.sql"; then
            haveCDShell=1
        fi
        # The same input into Core Data's store, through the same model as a Core Data model.
        rm -f "$coredatadb"
        if [[ " $only " == *" sluice "* ]] &&
            run2 "sluice coredata" "$bin/sluice" import --quiet --db "$coredatadb" --layout coredata \
                --model LargeFixtures/models/Document.xcdatamodel \
                --root stop_times=StopTime --root trips=Trip --root routes=Route --root stops=Stop "$doc"; then
            haveCoreData=1
        fi
        # Both again into new files with --vacuum, the way a seed store is made.
        if [[ " $only " == *" sluice "* ]]; then
            rm -f "$vacuumeddb"
            run2 "sluice --vacuum" "$bin/sluice" import --quiet --db "$vacuumeddb" --model "$model" --vacuum "$doc" || true
            rm -f "$vacuumeddb"
            run2 "coredata --vacuum" "$bin/sluice" import --quiet --db "$vacuumeddb" --layout coredata \
                --model LargeFixtures/models/Document.xcdatamodel \
                --root stop_times=StopTime --root trips=Trip --root routes=Route --root stops=Stop --vacuum "$doc" || true
            rm -f "$vacuumeddb"
        fi
    done
    medians "$tmp/results2" >"$tmp/medians2"

    # Where the two layouts overlap (the expert has no routes table): rows per table, links set
    # per fk column, then the rows themselves, links compared by the target's identity. With
    # unique identities and equal counts, one EXCEPT per table shows any difference.
    counts='SELECT (SELECT count(*) FROM stop_times), (SELECT count(*) FROM trips), (SELECT count(*) FROM stops),
        (SELECT count(trip_pk) FROM stop_times), (SELECT count(stop_pk) FROM stop_times), (SELECT count(parent_pk) FROM stops)'
    labels="stop_times trips stops stop_times.trip_pk stop_times.stop_pk stops.parent_pk"
    [ -z "$haveSluice" ] || sluiceCounts=$(sqlite3 -separator ' ' "$sluicedb" "$counts")
    [ -z "$haveCoreData" ] || coreDataCounts=$(sqlite3 -separator ' ' "$coredatadb" 'SELECT (SELECT count(*) FROM ZSTOPTIME),
        (SELECT count(*) FROM ZTRIP), (SELECT count(*) FROM ZSTOP), (SELECT count(ZTRIP) FROM ZSTOPTIME),
        (SELECT count(ZSTOP) FROM ZSTOPTIME), (SELECT count(ZPARENT) FROM ZSTOP)')
    if [ -n "$haveSluice" ] && [ -n "$haveCoreData" ]; then
        if [ "$coreDataCounts" != "$sluiceCounts" ]; then
            echo "ERROR: the Core Data store holds other rows or links ($coreDataCounts) than Sluice's layout ($sluiceCounts)"
            status=1
        fi
    fi
    [ -z "$haveShell" ] || shellCounts=$(sqlite3 -separator ' ' "$shelldb" "$counts")
    [ -z "$haveCDShell" ] || cdShellCounts=$(sqlite3 -separator ' ' "$cdshelldb" "$counts")
    # The Core Data store and the expert's file of the same format, where they overlap, as above.
    if [ -n "$haveCoreData" ] && [ -n "$haveCDShell" ]; then
        cdDiffering=$(sqlite3 -separator ' ' "$coredatadb" "ATTACH '$cdshelldb' AS q;
            SELECT (SELECT count(*) FROM (
                SELECT a.ZTRIPID, a.ZSEQUENCE, a.ZARRIVAL, a.ZDEPARTURE, t.ZTRIPID, s.ZSTOPID
                  FROM main.ZSTOPTIME a LEFT JOIN main.ZTRIP t ON t.Z_PK = a.ZTRIP LEFT JOIN main.ZSTOP s ON s.Z_PK = a.ZSTOP
                EXCEPT
                SELECT a.tripKey, a.sequence, a.arrival, a.departure, t.tripID, s.stopID
                  FROM q.stop_times a LEFT JOIN q.trips t ON t.pk = a.trip_pk LEFT JOIN q.stops s ON s.pk = a.stop_pk)),
            (SELECT count(*) FROM (
                SELECT a.ZTRIPID, a.ZHEADSIGN, r.ZROUTEID FROM main.ZTRIP a LEFT JOIN main.ZROUTE r ON r.Z_PK = a.ZROUTE
                EXCEPT
                SELECT tripID, headsign, routeKey FROM q.trips)),
            (SELECT count(*) FROM (
                SELECT a.ZSTOPID, a.ZNAME, a.ZLAT, a.ZLON, p.ZSTOPID FROM main.ZSTOP a LEFT JOIN main.ZSTOP p ON p.Z_PK = a.ZPARENT
                EXCEPT
                SELECT a.stopID, a.name, a.lat, a.lon, p.stopID FROM q.stops a LEFT JOIN q.stops p ON p.pk = a.parent_pk))")
    fi
    if [ -n "$haveSluice" ] && [ -n "$haveShell" ]; then
        differing=$(sqlite3 -separator ' ' "$sluicedb" "ATTACH '$shelldb' AS q;
            SELECT (SELECT count(*) FROM (
                SELECT a.tripID, a.sequence, a.arrival, a.departure, t.tripID, s.stopID
                  FROM main.stop_times a LEFT JOIN main.trips t ON t.pk = a.trip_pk LEFT JOIN main.stops s ON s.pk = a.stop_pk
                EXCEPT
                SELECT a.tripKey, a.sequence, a.arrival, a.departure, t.tripID, s.stopID
                  FROM q.stop_times a LEFT JOIN q.trips t ON t.pk = a.trip_pk LEFT JOIN q.stops s ON s.pk = a.stop_pk)),
            (SELECT count(*) FROM (
                SELECT a.tripID, a.headsign, r.routeID FROM main.trips a LEFT JOIN main.routes r ON r.pk = a.route_pk
                EXCEPT
                SELECT tripID, headsign, routeKey FROM q.trips)),
            (SELECT count(*) FROM (
                SELECT a.stopID, a.name, a.lat, a.lon, p.stopID FROM main.stops a LEFT JOIN main.stops p ON p.pk = a.parent_pk
                EXCEPT
                SELECT a.stopID, a.name, a.lat, a.lon, p.stopID FROM q.stops a LEFT JOIN q.stops p ON p.pk = a.parent_pk))")
    fi

    # Every record of the input: "sluice-fixtures: B bytes; S stop times, T trips, R routes, P stops".
    records=$(sed 's/[^0-9 ]//g' "$tmp/w2.counts" | awk '{ print $2 + $3 + $4 + $5 }')
    echo
    echo "W2: document (stop times, trips, routes, stops; references forward), scale $scale, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') JSON, $records records; $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(date -u +%Y-%m-%d); median of $runs runs"
    record_table "$tmp/medians2" "$records"
    echo
    awk -F'\t' "$targets"'
        $2 != "failed" { seconds[$1] = $2; rss[$1] = $5 }
        END {
            target("W2 cold <= 0.5x the expert script", ratio("sluice", "sqlite3"), 0.5, "")
            target("W2 re-import <= 0.35x cold", ratio("sluice re-import", "sluice"), 0.35, "")
            target("W2 into a Core Data store <= 0.5x the expert script writing the same format",
                   ratio("sluice coredata", "sqlite3 cdformat"), 0.5, "")
            mib("W2 peak RSS < 48 MiB", rss["sluice"])
            mib("W2 Core Data store peak RSS < 48 MiB", rss["sluice coredata"])
            target("W2 into a Core Data store with --vacuum <= 1.1x Sluice layout with --vacuum",
                   ratio("coredata --vacuum", "sluice --vacuum"), 1.1, "")
            mib("W2 with --vacuum peak RSS < 48 MiB", rss["sluice --vacuum"])
            mib("W2 Core Data store with --vacuum peak RSS < 48 MiB", rss["coredata --vacuum"])
        }' "$tmp/medians2"
    echo

    if [ -n "$haveSluice" ] && [ -n "$haveShell" ]; then
        printf '%-20s %10s %10s\n' "rows / links" "sluice" "sqlite3"
        paste <(tr ' ' '\n' <<<"$labels") <(tr ' ' '\n' <<<"$sluiceCounts") <(tr ' ' '\n' <<<"$shellCounts") |
            awk -F'\t' '{ printf "%-20s %10s %10s%s\n", $1, $2, $3, $2 == $3 ? "" : "   DIFFERENT" }'
        if [ "$sluiceCounts" != "$shellCounts" ]; then
            echo "ERROR: sluice's and sqlite3's databases hold different row or link counts"; status=1
        fi
        if [ "$differing" != "0 0 0" ]; then
            echo "ERROR: rows in sluice's database missing from sqlite3's (stop_times trips stops): $differing"; status=1
        fi
    fi
    if [ -n "$haveCoreData" ] && [ -n "$haveCDShell" ]; then
        printf '%-20s %10s %10s\n' "rows / links" "coredata" "cdformat"
        paste <(tr ' ' '\n' <<<"$labels") <(tr ' ' '\n' <<<"$coreDataCounts") <(tr ' ' '\n' <<<"$cdShellCounts") |
            awk -F'\t' '{ printf "%-20s %10s %10s%s\n", $1, $2, $3, $2 == $3 ? "" : "   DIFFERENT" }'
        if [ "$coreDataCounts" != "$cdShellCounts" ]; then
            echo "ERROR: the Core Data store and sqlite3's file of its format hold different row or link counts"; status=1
        fi
        if [ "$cdDiffering" != "0 0 0" ]; then
            echo "ERROR: rows in the Core Data store missing from sqlite3's file of its format (stop_times trips stops): $cdDiffering"
            status=1
        fi
    fi
fi
if [ -n "$w3" ]; then
    [ -n "$keep" ] || rm -f "$tmp/w1.json" "$tmp/w1.ndjson" "$tmp/w1.tsv" "$tmp/w2.json"
    feed=$tmp/w3.zip
    sluicedb=$tmp/w3-sluice.sqlite
    shelldb=$tmp/w3-sqlite3.sqlite
    echo "generating W3 (GTFS zip) at scale $scale..." >&2
    python3 Benchmarks/peers/gen_gtfs.py "$scale" "$feed"
    feed2=$tmp/w3-week2.zip
    python3 Benchmarks/peers/gen_gtfs.py "$scale" "$feed2" --week 2
    bytes=$(stat -c %s "$feed")
    # Every row of every file of the feed: its records.
    records=$(python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(sum(sum(1 for _ in z.open(n)) - 1 for n in z.namelist()))' "$feed")
    sync

    run3() {  # name, command...: a W3 run, kept in $tmp/results3 as name, seconds, KiB
        local name=$1 wall rss; shift
        if timed "w3-$name" "$@"; then
            printf '%s\t%s\t%s\n' "$name" "$wall" "$rss" >>"$tmp/results3"
        else
            printf '%s\tfailed\t-\n' "$name" >>"$tmp/results3"; status=1; return 1
        fi
    }
    w3tables() {  # database: a digest of the feed's tables' content
        sqlite3 "$1" '.sha3sum stop_times' '.sha3sum trips' '.sha3sum routes' '.sha3sum stops' '.sha3sum agency' '.sha3sum calendar' | tr '\n' ' '
    }
    # The Core Data model of the same files, and the entity of each file.
    cdmodel=LargeFixtures/models/GTFS.xcdatamodel
    cdroots="agency.txt=Agency calendar.txt=Calendar routes.txt=Route stops.txt=Stop trips.txt=Trip stop_times.txt=StopTime"
    cdroot=(); for r in $cdroots; do cdroot+=(--root "$r"); done
    # Its to-one columns and their tables (Sluice's layout declares its own: REFERENCES).
    cdlinks="ZSTOPTIME.ZTRIP=ZTRIP ZSTOPTIME.ZSTOP=ZSTOP ZTRIP.ZROUTE=ZROUTE ZROUTE.ZAGENCY=ZAGENCY ZSTOP.ZPARENTSTATION=ZSTOP"
    w3content() {  # database, [TABLE.COLUMN=TABLE ...]: per table, its rows and a digest of them, keys renumbered away
        # Each row without its key (pk, Z_PK) and Z_OPT, each link as the attributes of the row it
        # points at: two databases of the same rows and links give the same lines whatever keys
        # they issued. The digest is a sum of row hashes: no sort, the rows streamed.
        python3 - "$@" <<'PY'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
q = lambda name: '"' + name.replace('"', '""') + '"'
tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                                   "AND name NOT LIKE 'sluice_%' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE', 'Z_PRIMARYKEY') ORDER BY name")]
links = {t: {} for t in tables}
for pair in sys.argv[2:]:
    column, target = pair.split("=")
    table, column = column.split(".")
    links[table][column] = target
for t in tables:
    for fk in db.execute(f"PRAGMA foreign_key_list({q(t)})"):
        links[t][fk[3]] = fk[2]
columns = {t: [c[1] for c in db.execute(f"PRAGMA table_info({q(t)})")] for t in tables}
key = {t: "Z_PK" if "Z_PK" in columns[t] else "pk" for t in tables}
attributes = {t: [c for c in columns[t] if c not in (key[t], "Z_OPT") and c not in links[t]] for t in tables}
for t in tables:
    select = [f"a.{q(c)}" for c in attributes[t]]
    joins = ""
    for i, (column, target) in enumerate(sorted(links[t].items())):
        select += [f"a.{q(column)} IS NULL"] + [f"l{i}.{q(c)}" for c in attributes[target]]
        joins += f" LEFT JOIN {q(target)} l{i} ON l{i}.{q(key[target])} = a.{q(column)}"
    total, rows = 0, 0
    for row in db.execute(f"SELECT {', '.join(select)} FROM {q(t)} a{joins}"):
        total += int.from_bytes(hashlib.blake2b(repr(row).encode(), digest_size=16).digest(), "little")
        rows += 1
    print(f"{t} {rows} {total % (1 << 128):032x}")
PY
    }
    w3changes() {  # stats file, FILE=ENTITY ...: whether --stats counts the rows week 2 changed, per file
        python3 - "$feed" "$feed2" "$@" <<'PY'
import csv, io, json, sys, zipfile
week1, week2, stats = sys.argv[1:4]
identity = {"agency.txt": ["agency_id"], "calendar.txt": ["service_id"], "routes.txt": ["route_id"], "stops.txt": ["stop_id"],
            "trips.txt": ["trip_id"], "stop_times.txt": ["trip_id", "stop_sequence"]}
def rows(feed, name):
    with zipfile.ZipFile(feed) as z:
        reader = csv.DictReader(io.TextIOWrapper(z.open(name), encoding="utf-8-sig", newline=""))
        return {tuple(row[c] for c in identity[name]): row for row in reader}
counted = {e["entity"]: e for e in json.load(open(stats))["entities"]}
status = 0
for pair in sys.argv[4:]:
    name, entity = pair.split("=")
    old, new = rows(week1, name), rows(week2, name)
    expected = {"inserted": len(new.keys() - old.keys()), "deleted": len(old.keys() - new.keys()),
                "updated": sum(1 for k in new.keys() & old.keys() if new[k] != old[k])}
    expected["unchanged"] = len(new) - expected["inserted"] - expected["updated"]
    got = {k: counted[entity].get(k, 0) for k in expected}
    print(f"{entity:<12} " + ", ".join(f"{k} {got[k]}" + ("" if got[k] == expected[k] else f" (week 2 changed {expected[k]})")
                                       for k in expected))
    if got != expected: status = 1
sys.exit(status)
PY
    }

    updatedb=$tmp/w3-update.sqlite
    week2db=$tmp/w3-week2.sqlite
    cddb=$tmp/w3-coredata.sqlite
    cdupdatedb=$tmp/w3-cdupdate.sqlite
    cdweek2db=$tmp/w3-cdweek2.sqlite
    : >"$tmp/results3"
    haveSluice="" haveShell="" haveUpdate="" haveWeek2="" haveCoreDataUpdate="" haveCoreDataWeek2=""
    for n in $(seq "$runs"); do
        round "$n"
        rm -f "$sluicedb" "$shelldb"
        if [[ " $only " == *" sluice "* ]] &&
            run3 sluice "$bin/sluice" import --quiet --stats "$tmp/w3-cold.stats" --db "$sluicedb" --model gtfs "$feed"; then
            haveSluice=1
            before=$(w3tables "$sluicedb")
            if run3 "sluice re-import" "$bin/sluice" import --quiet --stats "$tmp/w3-reimport.stats" --db "$sluicedb" --model gtfs "$feed"; then
                after=$(w3tables "$sluicedb")
                logged=$(sqlite3 "$sluicedb" 'SELECT inserted, updated FROM sluice_imports ORDER BY id DESC LIMIT 1')
                totals=$(sqlite3 :memory: "SELECT json_extract(s, '\$.totals.inserted'), json_extract(s, '\$.totals.updated'),
                    json_extract(s, '\$.totals.deleted'), json_extract(s, '\$.totals.links') FROM (SELECT readfile('$tmp/w3-reimport.stats') AS s)")
                if [ "$logged" != "0|0" ] || [ "$totals" != "0|0|0|0" ] || [ "$before" != "$after" ]; then
                    echo "ERROR: the W3 re-import wrote rows: sluice_imports inserted|updated = $logged," \
                        "--stats inserted|updated|deleted|links = $totals, tables $([ "$before" = "$after" ] && echo unchanged || echo CHANGED)"
                    status=1
                fi
            fi
        fi
        # Week 2 into a copy of week 1's database, then cold into a new one.
        if [ -n "$haveSluice" ]; then
            rm -f "$updatedb" "$week2db"
            cp "$sluicedb" "$updatedb"
            run3 "sluice update" "$bin/sluice" import --quiet --stats "$tmp/w3-update.stats" --db "$updatedb" --model gtfs \
                --delete-missing "$feed2" && haveUpdate=1
            run3 "sluice week 2" "$bin/sluice" import --quiet --db "$week2db" --model gtfs "$feed2" && haveWeek2=1
        fi
        if [[ " $only " == *" sqlite3 "* ]] && run3 sqlite3 bash Benchmarks/peers/w3_sqlite3.sh "$feed" "$shelldb"; then
            haveShell=1
        fi
        # The same four into a Core Data store.
        if [[ " $only " == *" sluice "* ]]; then
            rm -f "$cddb" "$cdupdatedb" "$cdweek2db"
            if run3 coredata "$bin/sluice" import --quiet --db "$cddb" --layout coredata --model "$cdmodel" "${cdroot[@]}" "$feed"; then
                run3 "coredata re-import" "$bin/sluice" import --quiet --db "$cddb" --layout coredata --model "$cdmodel" "${cdroot[@]}" "$feed" || true
                cp "$cddb" "$cdupdatedb"
                run3 "coredata update" "$bin/sluice" import --quiet --stats "$tmp/w3-cdupdate.stats" --db "$cdupdatedb" --layout coredata \
                    --model "$cdmodel" "${cdroot[@]}" --delete-missing "$feed2" && haveCoreDataUpdate=1
                run3 "coredata week 2" "$bin/sluice" import --quiet --db "$cdweek2db" --layout coredata --model "$cdmodel" \
                    "${cdroot[@]}" "$feed2" && haveCoreDataWeek2=1
            fi
        fi
    done
    medians "$tmp/results3" >"$tmp/medians3"

    counts='SELECT (SELECT count(*) FROM stop_times), (SELECT count(*) FROM trips), (SELECT count(*) FROM routes), (SELECT count(*) FROM stops),
        (SELECT count(trip_pk) FROM stop_times), (SELECT count(stop_pk) FROM stop_times), (SELECT count(route_pk) FROM trips),
        (SELECT count(parent_station_pk) FROM stops)'
    labels="stop_times trips routes stops stop_times.trip_pk stop_times.stop_pk trips.route_pk stops.parent_station_pk"
    [ -z "$haveSluice" ] || sluiceCounts=$(sqlite3 -separator ' ' "$sluicedb" "$counts")
    [ -z "$haveShell" ] || shellCounts=$(sqlite3 -separator ' ' "$shelldb" "$counts")
    if [ -n "$haveSluice" ] && [ -n "$haveShell" ]; then
        # The rows where both hold the same values: the expert's script keeps an empty field of
        # the columns it does not NULLIF as '' (sluice: NULL), so those are left out; and
        # coordinates are compared to 9 decimals, as SQLite 3.40's own text-to-REAL conversion
        # in .import can be 1 ulp off the correctly rounded double sluice stores (52.342333).
        differing=$(sqlite3 -separator ' ' "$sluicedb" "ATTACH '$shelldb' AS q;
            SELECT (SELECT count(*) FROM (
                SELECT a.trip_id, a.stop_sequence, a.arrival_time, a.departure_time, t.trip_id, s.stop_id
                  FROM main.stop_times a LEFT JOIN main.trips t ON t.pk = a.trip_pk LEFT JOIN main.stops s ON s.pk = a.stop_pk
                EXCEPT
                SELECT a.trip_id, a.stop_sequence, a.arrival_time, a.departure_time, t.trip_id, s.stop_id
                  FROM q.stop_times a LEFT JOIN q.trips t ON t.pk = a.trip_pk LEFT JOIN q.stops s ON s.pk = a.stop_pk)),
            (SELECT count(*) FROM (
                SELECT a.trip_id, a.service_id, a.trip_headsign, r.route_id FROM main.trips a LEFT JOIN main.routes r ON r.pk = a.route_pk
                EXCEPT
                SELECT a.trip_id, a.service_id, a.trip_headsign, r.route_id FROM q.trips a LEFT JOIN q.routes r ON r.pk = a.route_pk)),
            (SELECT count(*) FROM (
                SELECT a.stop_id, a.stop_name, round(a.stop_lat, 9), round(a.stop_lon, 9), p.stop_id
                  FROM main.stops a LEFT JOIN main.stops p ON p.pk = a.parent_station_pk
                EXCEPT
                SELECT a.stop_id, a.stop_name, round(a.stop_lat, 9), round(a.stop_lon, 9), p.stop_id
                  FROM q.stops a LEFT JOIN q.stops p ON p.pk = a.parent_station_pk))")
    fi

    echo
    echo "W3: GTFS feed (zip), scale $scale, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') zipped, $records records; $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(date -u +%Y-%m-%d); median of $runs runs"
    record_table "$tmp/medians3" "$records"
    echo
    awk -F'\t' "$targets"'
        $2 != "failed" { seconds[$1] = $2; rss[$1] = $5 }
        END {
            target("W3 cold <= 0.5x the expert script", ratio("sluice", "sqlite3"), 0.5, "")
            target("W3 re-import <= 0.35x cold", ratio("sluice re-import", "sluice"), 0.35, "")
            mib("W3 peak RSS < 48 MiB", rss["sluice"])
            target("W3 update <= 0.5x cold week 2", ratio("sluice update", "sluice week 2"), 0.5, "")
            target("W3 re-import below the update", ratio("sluice re-import", "sluice update"), 0.999, "(re-import / update)")
            mib("W3 update peak RSS < 48 MiB", rss["sluice update"])
            target("W3 Core Data update <= 0.5x cold week 2", ratio("coredata update", "coredata week 2"), 0.5, "")
            target("W3 Core Data re-import below the update", ratio("coredata re-import", "coredata update"), 0.999, "(re-import / update)")
            mib("W3 Core Data peak RSS < 48 MiB", rss["coredata"])
            mib("W3 Core Data update peak RSS < 48 MiB", rss["coredata update"])
        }' "$tmp/medians3"
    echo

    # The updates hold what the cold imports of week 2 hold, and --stats counted what week 2 changed.
    if [ -n "$haveUpdate" ] && [ -n "$haveWeek2" ]; then
        if [ "$(w3content "$updatedb")" = "$(w3content "$week2db")" ]; then
            echo "W3 update: the same rows and links as the cold import of week 2 ($(w3content "$updatedb" | awk '$2 > 0 { printf "%s%s %s", n++ ? ", " : "", $1, $2 }'))"
        else
            echo "ERROR: the W3 update's database differs from the cold import of week 2 (table, rows, digest):"
            diff <(w3content "$updatedb") <(w3content "$week2db") || true
            status=1
        fi
        w3changes "$tmp/w3-update.stats" agency.txt=agency calendar.txt=calendar routes.txt=routes stops.txt=stops trips.txt=trips \
            stop_times.txt=stop_times || { echo "ERROR: the W3 update's --stats do not count the rows week 2 changed"; status=1; }
    fi
    if [ -n "$haveCoreDataUpdate" ] && [ -n "$haveCoreDataWeek2" ]; then
        if [ "$(w3content "$cdupdatedb" $cdlinks)" = "$(w3content "$cdweek2db" $cdlinks)" ]; then
            echo "W3 Core Data update: the same rows and links as the cold import of week 2"
        else
            echo "ERROR: the W3 Core Data update's store differs from the cold import of week 2 (table, rows, digest):"
            diff <(w3content "$cdupdatedb" $cdlinks) <(w3content "$cdweek2db" $cdlinks) || true
            status=1
        fi
        w3changes "$tmp/w3-cdupdate.stats" $cdroots || { echo "ERROR: the W3 Core Data update's --stats do not count the rows week 2 changed"; status=1; }
    fi
    echo

    if [ -n "$haveSluice" ] && [ -n "$haveShell" ]; then
        printf '%-24s %10s %10s\n' "rows / links" "sluice" "sqlite3"
        paste <(tr ' ' '\n' <<<"$labels") <(tr ' ' '\n' <<<"$sluiceCounts") <(tr ' ' '\n' <<<"$shellCounts") |
            awk -F'\t' '{ printf "%-24s %10s %10s%s\n", $1, $2, $3, $2 == $3 ? "" : "   DIFFERENT" }'
        if [ "$sluiceCounts" != "$shellCounts" ]; then
            echo "ERROR: sluice's and sqlite3's W3 databases hold different row or link counts"; status=1
        fi
        if [ "$differing" != "0 0 0" ]; then
            echo "ERROR: W3 rows in sluice's database missing from sqlite3's (stop_times trips stops): $differing"; status=1
        fi
    fi
fi
if [ -n "$pg" ]; then
    start_postgres
    pgversion=$("$pgbin/postgres" --version | sed -n 's/^postgres (PostgreSQL) \([0-9.]*\).*/\1/p')

    if [[ " $only " == *" duckdb "* || " $only " == *" copy "* ]]; then
        echo "installing duckdb and duckdb-ext-postgres into a temporary venv..." >&2
        python3 -m venv "$tmp/venv"
        "$tmp/venv/bin/pip" install -q duckdb==1.4.4 duckdb-ext-postgres==1.4.4.20260205 >&2
        extensions=$("$tmp/venv/bin/python" -c 'import duckdb_ext, os; print(os.path.join(list(duckdb_ext.__path__)[0], "extensions"))')
    fi

    echo "generating scale $scale..." >&2
    "$bin/sluice-fixtures" --shape flat --scale "$scale" --output "$tmp/w1.json"
    bytes=$(stat -c %s "$tmp/w1.json")
    if [[ " $only " == *" copy "* ]]; then
        "$tmp/venv/bin/python" Benchmarks/compare/w1_csv.py "$tmp/w1.json" "$tmp/w1.csv"
    fi
    sync
    # The table sluice makes from flat.json (`sluice schema --dialect postgresql`), for the floor,
    # as a new import makes it: the primary key comes after the load.
    table=$("$bin/sluice" schema --dialect postgresql --model LargeFixtures/models/flat.json 2>/dev/null \
        | awk '/^CREATE TABLE IF NOT EXISTS "stop_times"/ { on = 1 } on { print } on && /^\);/ { exit }' | sed 's/ PRIMARY KEY,$/,/')
    w1columns="trip_id, arrival_time, departure_time, stop_id, stop_sequence, pickup_type, drop_off_type, shape_dist_traveled"

    # The server's own work for a run: the CPU seconds (user + system) of the backends
    # connected to `database`, sampled from /proc every 50 ms until the sampler is stopped
    # (a backend's last sample is kept, so its last 50 ms may be missed). One backend does all
    # of a session's work, on one core: no client can finish before it has. Linux only ("-").
    sample_backends() {  # database: runs until killed, noting "pid ticks" lines in $tmp/cpu-<database>
        local database=$1 pid
        : >"$tmp/cpu-$database"
        while :; do
            for pid in $(pgrep -f "^postgres: sluice $database " 2>/dev/null); do
                # A backend may end between pgrep and awk: no sample then, and the sampler goes on.
                awk -v pid="$pid" '{ print pid, $14 + $15 }' "/proc/$pid/stat" 2>/dev/null >>"$tmp/cpu-$database" || true
            done
            sleep 0.05
        done
    }

    backend_seconds() {  # database: the sampled backends' CPU seconds, each backend's last sample
        awk -v hz="$(getconf CLK_TCK)" '{ t[$1] = $2 } END { for (p in t) s += t[p]; print (length(t) ? sprintf("%.2f", s / hz) : "-") }' \
            "$tmp/cpu-$1"
    }

    per_tool() {  # file of "name<TAB>seconds" lines: "name s1 s2, name s1 s2"
        awk -F'\t' '{ cpu[$1] = cpu[$1] (cpu[$1] == "" ? "" : " ") $2 } END { for (name in cpu) printf "%s%s %s", (n++ ? ", " : ""), name, cpu[name] }' "$1"
    }

    runpg() {  # name, database, table, command...: a W1 run into table `table` of PostgreSQL database `database`
        local name=$1 database=$2 table=$3; shift 3
        [[ " $only " == *" $name "* ]] || return 0
        local wall rss rows sampler
        sample_backends "$database" &
        sampler=$!
        if ! timed "pg-$name" "$@"; then
            kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
            printf '%s\tfailed\t-\t-\n' "$name" >>"$tmp/results-pg"
            return 0
        fi
        kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
        rows=$(psqlc "$database" "SELECT count(*) FROM $table")
        if [ "$(psqlc "$database" "SELECT count(*) FROM pg_index WHERE indisprimary AND indrelid = '$table'::regclass")" != 1 ]; then
            echo "ERROR: $name left $table without its primary key" >&2; status=1
        fi
        printf '%s\t%s\t%s\t%s\n' "$name" "$wall" "$rss" "$rows" >>"$tmp/results-pg"
        printf '%s\t%s\n' "$name" "$(backend_seconds "$database")" >>"$tmp/cpu-pg"
        psqlc postgres "DROP DATABASE $database"
    }

    : >"$tmp/results-pg"
    : >"$tmp/cpu-pg"
    for n in $(seq "$runs"); do
        round "$n"
        if [[ " $only " == *" sluice "* ]]; then fresh w1_sluice; fi
        runpg sluice w1_sluice stop_times "$bin/sluice" import --quiet --db "$(pguri w1_sluice)" --model LargeFixtures/models/flat.json "$tmp/w1.json"
        if [[ " $only " == *" duckdb "* ]]; then fresh w1_duckdb; fi
        PATH="$pgbin:$PATH" runpg duckdb w1_duckdb stop_times_duck "$tmp/venv/bin/python" Benchmarks/peers/duck_w1_pg_pk.py \
            "$tmp/w1.json" "$(pguri w1_duckdb)" "${extensions:-}"
        if [[ " $only " == *" copy "* ]]; then fresh w1_copy && psqlc w1_copy "$table" >/dev/null; fi
        runpg copy w1_copy stop_times "$pgbin/psql" -X -q -v ON_ERROR_STOP=1 "$(pguri w1_copy)" \
            -c "\\copy stop_times ($w1columns) FROM '$tmp/w1.csv' WITH (FORMAT csv)" -c 'ALTER TABLE stop_times ADD PRIMARY KEY ("pk")'
    done
    medians "$tmp/results-pg" >"$tmp/medians-pg"

    echo
    echo "W1 into PostgreSQL $pgversion: flat stop times, scale $scale, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') JSON; $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(date -u +%Y-%m-%d); median of $runs runs"
    awk -F'\t' '
        NR == FNR { if ($1 == "sluice" && $2 != "failed") { base = $2; baseRss = $5 } ; next }
        FNR == 1 { printf "%-13s %9s %11s %9s %12s %11s %12s\n", "tool", "seconds", "range", "rows/s", "peak RSS MiB", "rows", "time/sluice" }
        $2 == "failed" { printf "%-13s %9s\n", $1, "failed"; next }
        {
            rate = ($6 == "-" || $2 == 0) ? "-" : sprintf("%.0f", $6 / $2)
            printf "%-13s %9.1f %11s %9s %12.1f %11s %12s\n", $1, $2, sprintf("%.1f-%.1f", $3, $4), rate, $5 / 1024, $6,
                base ? sprintf("%.2fx", $2 / base) : "-"
        }' "$tmp/medians-pg" "$tmp/medians-pg"
    echo "server CPU seconds (its backend's user + system) per run: $(per_tool "$tmp/cpu-pg")"
    echo
    awk -F'\t' "$targets"'
        $2 != "failed" { seconds[$1] = $2; rss[$1] = $5 }
        END {
            target("W1 <= 1.0x DuckDB, same table (PostgreSQL)", ratio("sluice", "duckdb"), 1.0, "")
            target("W1 <= 1.2x COPY, same table (PostgreSQL)", ratio("sluice", "copy"), 1.2, "")
            mib("W1 peak RSS < 48 MiB", rss["sluice"])
        }' "$tmp/medians-pg"
    awk -F'\t' '$4 != "-" && $4 != "" { n[$4]++ } END { if (length(n) > 1) { print "WARNING: the tools wrote different row counts"; exit 1 } }' "$tmp/results-pg" || status=1

    if [[ " $only " == *" sluice "* ]]; then
        [ -n "$keep" ] || rm -f "$tmp/w1.json" "$tmp/w1.csv"
        model=LargeFixtures/models/document.json
        doc=$tmp/w2.json
        echo "generating W2 (document) at scale $scale..." >&2
        "$bin/sluice-fixtures" --shape document --scale "$scale" --counts --output "$doc" 2>"$tmp/w2.counts"
        records=$(sed 's/[^0-9 ]//g' "$tmp/w2.counts" | awk '{ print $2 + $3 + $4 + $5 }')
        bytes=$(stat -c %s "$doc")
        sync
        # Rows the server counts as inserted, updated or deleted in the database's tables.
        written='SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables'
        : >"$tmp/results-pg2"
        for n in $(seq "$runs"); do
            round "$n"
            fresh w2_sluice
            if timed pg-w2-cold "$bin/sluice" import --quiet --db "$(pguri w2_sluice)" --model "$model" "$doc"; then
                printf 'sluice\t%s\t%s\n' "$wall" "$rss" >>"$tmp/results-pg2"
                before=$(psqlc w2_sluice "$written")
                if timed pg-w2-reimport "$bin/sluice" import --quiet --stats "$tmp/pg-w2-reimport.stats" --db "$(pguri w2_sluice)" --model "$model" "$doc"; then
                    printf 'sluice re-import\t%s\t%s\n' "$wall" "$rss" >>"$tmp/results-pg2"
                    after=$(psqlc w2_sluice "$written")
                    logged=$(psqlc w2_sluice 'SELECT inserted, updated FROM sluice_imports ORDER BY id DESC LIMIT 1')
                    totals=$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["totals"]; print("|".join(str(t[k]) for k in ("inserted", "updated", "deleted", "links")))' "$tmp/pg-w2-reimport.stats")
                    # The re-import's own sluice_imports row is the one write allowed.
                    if [ "$logged" != "0|0" ] || [ "$totals" != "0|0|0|0" ] || [ "$((after - before))" != 1 ]; then
                        echo "ERROR: the re-import into PostgreSQL wrote rows: sluice_imports inserted|updated = $logged," \
                            "--stats inserted|updated|deleted|links = $totals, rows the server saw written: $((after - before)) (1 expected, the log's)"
                        status=1
                    fi
                else
                    printf 'sluice re-import\tfailed\t-\n' >>"$tmp/results-pg2"; status=1
                fi
                counts=$(psqlc w2_sluice 'SELECT (SELECT count(*) FROM stop_times), (SELECT count(*) FROM trips), (SELECT count(*) FROM routes), (SELECT count(*) FROM stops), (SELECT count(trip_pk) FROM stop_times), (SELECT count(stop_pk) FROM stop_times), (SELECT count(route_pk) FROM trips), (SELECT count(parent_pk) FROM stops)')
            else
                printf 'sluice\tfailed\t-\n' >>"$tmp/results-pg2"; status=1
            fi
        done
        medians "$tmp/results-pg2" >"$tmp/medians-pg2"
        echo
        echo "W2 into PostgreSQL $pgversion: document, scale $scale, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') JSON, $records records; median of $runs runs"
        awk -F'\t' -v records="$records" '
            NR == FNR { if ($1 == "sluice" && $2 != "failed") base = $2; next }
            FNR == 1 { printf "%-17s %9s %11s %10s %12s %12s\n", "tool", "seconds", "range", "records/s", "peak RSS MiB", "time/sluice" }
            $2 == "failed" { printf "%-17s %9s\n", $1, "failed"; next }
            {
                printf "%-17s %9.2f %11s %10s %12.1f %12s\n", $1, $2, sprintf("%.1f-%.1f", $3, $4),
                    ($2 > 0 ? sprintf("%.0f", records / $2) : "-"), $5 / 1024, base ? sprintf("%.2fx", $2 / base) : "-"
            }' "$tmp/medians-pg2" "$tmp/medians-pg2"
        echo "rows stop_times|trips|routes|stops, links trip|stop|route|parent: ${counts:-?}"
        echo
        awk -F'\t' "$targets"'
            $2 != "failed" { seconds[$1] = $2; rss[$1] = $5 }
            END {
                target("W2 re-import <= 0.35x cold (PG)", ratio("sluice re-import", "sluice"), 0.35, "")
                mib("W2 peak RSS < 48 MiB", rss["sluice"])
            }' "$tmp/medians-pg2"
    fi

    # W3 into PostgreSQL: gen_gtfs.py's week 1 and week 2 (--week 2: trips later, withdrawn and
    # new, stops renamed), --model gtfs. Per round: sluice cold (week 1), the unchanged re-import
    # (must write nothing), the update (week 2 with --delete-missing into that database), and the
    # expert's psql script cold (Benchmarks/peers/w3_psql.sh). The update is checked once against
    # a cold import of week 2, row for row and link for link (links by the target's identity),
    # and its --stats against the rows the generator changed.
    if [[ " $only " == *" sluice "* || " $only " == *" psql "* ]]; then
        [ -n "$keep" ] || rm -f "$tmp/w2.json"
        echo "generating W3 (GTFS zip) weeks 1 and 2 at scale $scale..." >&2
        python3 Benchmarks/peers/gen_gtfs.py "$scale" "$tmp/w3.zip"
        python3 Benchmarks/peers/gen_gtfs.py "$scale" "$tmp/w3-week2.zip" --week 2
        bytes=$(stat -c %s "$tmp/w3.zip")
        records=$(python3 -c 'import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(sum(sum(1 for _ in z.open(n)) - 1 for n in z.namelist()))' "$tmp/w3.zip")
        # What week 2 changes per file, by identity: inserted, updated, deleted rows.
        expected=$(python3 - "$tmp/w3.zip" "$tmp/w3-week2.zip" <<'PY'
import csv, io, sys, zipfile
identity = {"agency": ["agency_id"], "calendar": ["service_id"], "routes": ["route_id"], "stops": ["stop_id"],
            "trips": ["trip_id"], "stop_times": ["trip_id", "stop_sequence"]}
def rows(path, name):
    with zipfile.ZipFile(path) as z:
        reader = csv.DictReader(io.TextIOWrapper(z.open(name + ".txt"), encoding="utf-8-sig", newline=""))
        return {tuple(r[c] for c in identity[name]): r for r in reader}
out = []
for name in identity:
    old, new = rows(sys.argv[1], name), rows(sys.argv[2], name)
    out.append("%s:%d|%d|%d" % (name, len(new.keys() - old.keys()), sum(1 for k in new.keys() & old.keys() if new[k] != old[k]),
                                len(old.keys() - new.keys())))
print(" ".join(out))
PY
)
        sync
        written='SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables'
        # The feed's rows with their links by the target's identity, in one order: two databases
        # hold the same feed when these digests are equal.
        w3digest() {  # database
            local query
            for query in \
                'SELECT st.trip_id, st.stop_sequence, st.arrival_time, st.departure_time, st.stop_id, st.pickup_type, st.drop_off_type,
                    st.shape_dist_traveled, t.trip_id, s.stop_id FROM stop_times st LEFT JOIN trips t ON t.pk = st.trip_pk
                    LEFT JOIN stops s ON s.pk = st.stop_pk ORDER BY 1, 2' \
                'SELECT t.trip_id, t.route_id, t.service_id, t.trip_headsign, t.direction_id, r.route_id FROM trips t
                    LEFT JOIN routes r ON r.pk = t.route_pk ORDER BY 1' \
                'SELECT s.stop_id, s.stop_name, s.stop_lat, s.stop_lon, s.location_type, s.parent_station, p.stop_id FROM stops s
                    LEFT JOIN stops p ON p.pk = s.parent_station_pk ORDER BY 1' \
                'SELECT r.route_id, r.agency_id, r.route_short_name, r.route_long_name, r.route_type, r.route_color, a.agency_id
                    FROM routes r LEFT JOIN agency a ON a.pk = r.agency_pk ORDER BY 1'; do
                psqlc "$1" "$query" | sha256sum | cut -c1-16
            done | tr '\n' ' '
        }
        w3counts='SELECT (SELECT count(*) FROM stop_times), (SELECT count(*) FROM trips), (SELECT count(*) FROM routes), (SELECT count(*) FROM stops),
            (SELECT count(trip_pk) FROM stop_times), (SELECT count(stop_pk) FROM stop_times), (SELECT count(route_pk) FROM trips),
            (SELECT count(parent_station_pk) FROM stops)'
        stats_totals() {  # stats file: inserted|updated|deleted|links
            python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["totals"]; print("|".join(str(t[k]) for k in ("inserted", "updated", "deleted", "links")))' "$1"
        }
        stats_entities() {  # stats file: entity:inserted|updated|deleted for the files of $expected
            python3 -c 'import json, sys
e = {x["entity"]: x for x in json.load(open(sys.argv[1]))["entities"]}
print(" ".join("%s:%d|%d|%d" % (n, e[n]["inserted"], e[n]["updated"], e[n]["deleted"])
               for n in ("agency", "calendar", "routes", "stops", "trips", "stop_times")))' "$1"
        }
        w3pg() {  # name, database, command...: a timed W3 run, its backends' CPU sampled; kept in $tmp/results-pg3
            local name=$1 database=$2 wall rss sampler; shift 2
            sample_backends "$database" &
            sampler=$!
            if timed "pg-w3-$name" "$@"; then
                kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
                printf '%s\t%s\t%s\n' "$name" "$wall" "$rss" >>"$tmp/results-pg3"
                printf '%s\t%s\n' "$name" "$(backend_seconds "$database")" >>"$tmp/cpu-pg3"
            else
                kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
                printf '%s\tfailed\t-\n' "$name" >>"$tmp/results-pg3"; status=1; return 1
            fi
        }
        : >"$tmp/results-pg3"
        : >"$tmp/cpu-pg3"
        w3checked=""
        for n in $(seq "$runs"); do
            round "$n"
            if [[ " $only " == *" sluice "* ]]; then
                fresh w3_sluice
                if w3pg sluice w3_sluice "$bin/sluice" import --quiet --db "$(pguri w3_sluice)" --model gtfs "$tmp/w3.zip"; then
                    sluiceCounts=$(psqlc w3_sluice "$w3counts")
                    before=$(psqlc w3_sluice "$written")
                    if w3pg "sluice re-import" w3_sluice "$bin/sluice" import --quiet --stats "$tmp/pg-w3-reimport.stats" \
                        --db "$(pguri w3_sluice)" --model gtfs "$tmp/w3.zip"; then
                        after=$(psqlc w3_sluice "$written")
                        logged=$(psqlc w3_sluice 'SELECT inserted, updated FROM sluice_imports ORDER BY id DESC LIMIT 1')
                        totals=$(stats_totals "$tmp/pg-w3-reimport.stats")
                        # The re-import's own sluice_imports row is the one write allowed.
                        if [ "$logged" != "0|0" ] || [ "$totals" != "0|0|0|0" ] || [ "$((after - before))" != 1 ]; then
                            echo "ERROR: the W3 re-import into PostgreSQL wrote rows: sluice_imports inserted|updated = $logged," \
                                "--stats inserted|updated|deleted|links = $totals, rows the server saw written: $((after - before)) (1 expected, the log's)"
                            status=1
                        fi
                    fi
                    if w3pg "sluice update" w3_sluice "$bin/sluice" import --quiet --stats "$tmp/pg-w3-update.stats" --delete-missing \
                        --db "$(pguri w3_sluice)" --model gtfs "$tmp/w3-week2.zip" && [ -z "$w3checked" ]; then
                        w3checked=1
                        fresh w3_week2
                        "$bin/sluice" import --quiet --db "$(pguri w3_week2)" --model gtfs "$tmp/w3-week2.zip"
                        updated=$(w3digest w3_sluice) cold2=$(w3digest w3_week2)
                        if [ "$updated" != "$cold2" ] || [ "$(psqlc w3_sluice "$w3counts")" != "$(psqlc w3_week2 "$w3counts")" ]; then
                            echo "ERROR: the W3 update into PostgreSQL differs from a cold import of week 2 (stop_times trips stops routes):" \
                                "$updated against $cold2"
                            status=1
                        fi
                        changed=$(stats_entities "$tmp/pg-w3-update.stats")
                        if [ "$changed" != "$expected" ]; then
                            echo "ERROR: the W3 update's --stats (inserted|updated|deleted) are not the rows week 2 changes:" \
                                "$changed against $expected"
                            status=1
                        fi
                        psqlc postgres "DROP DATABASE w3_week2"
                    fi
                fi
            fi
            if [[ " $only " == *" psql "* ]]; then
                fresh w3_psql
                PATH="$pgbin:$PATH" w3pg psql w3_psql bash Benchmarks/peers/w3_psql.sh "$tmp/w3.zip" "$(pguri w3_psql)" &&
                    psqlCounts=$(psqlc w3_psql "$w3counts")
            fi
        done
        medians "$tmp/results-pg3" >"$tmp/medians-pg3"
        echo
        echo "W3 into PostgreSQL $pgversion: GTFS feed (zip), scale $scale, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') zipped, $records records; median of $runs runs"
        record_table "$tmp/medians-pg3" "$records"
        echo "server CPU seconds (its backends' user + system) per run: $(per_tool "$tmp/cpu-pg3")"
        [ -z "$w3checked" ] || echo "update: inserted|updated|deleted per file $changed (week 2's changes: $expected)"
        echo
        awk -F'\t' "$targets"'
            $2 != "failed" { seconds[$1] = $2; rss[$1] = $5 }
            END {
                target("W3 cold <= 0.8x the psql script (PG)", ratio("sluice", "psql"), 0.8, "")
                target("W3 update <= 0.5x cold (PG)", ratio("sluice update", "sluice"), 0.5, "")
                target("W3 re-import below the update (PG)", ratio("sluice re-import", "sluice update"), 1.0, "")
                peak = rss["sluice"]; if (rss["sluice re-import"] > peak) peak = rss["sluice re-import"]; if (rss["sluice update"] > peak) peak = rss["sluice update"]
                mib("W3 peak RSS < 48 MiB (PG)", peak)
            }' "$tmp/medians-pg3"
        if [ -n "${sluiceCounts:-}" ] && [ -n "${psqlCounts:-}" ]; then
            echo "rows stop_times|trips|routes|stops, links trip|stop|route|parent: sluice $sluiceCounts, psql $psqlCounts"
            if [ "$sluiceCounts" != "$psqlCounts" ]; then
                echo "ERROR: sluice's and the psql script's W3 databases hold different row or link counts"; status=1
            fi
        fi
    fi
fi
exit $status
