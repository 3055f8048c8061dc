#!/usr/bin/env bash
# Sluice against the tools a user would pick instead, side by side in one run on the same
# generated input. `docs/performance.md` W1: the flat array of stop times, 3,000,000 rows at scale 1:
#
#   sluice          sluice import --model LargeFixtures/models/flat.json w1.json
#   sqlite3 shell   INSERT … SELECT … FROM json_each(readfile('w1.json'))
#   sqlite-utils    sqlite-utils insert --nl (the same rows as NDJSON: it streams only that)
#   duckdb          read_json into a SQLite file through the sqlite extension
#   C insert loop   prepared inserts of the same rows from TSV, journal/synchronous off (the floor)
#   yajl parse      yajl over w1.json with no-op callbacks (the parser's ceiling; writes nothing)
#
# Prints wall time, peak RSS (/usr/bin/time -v) and ratios to Sluice, and checks that every
# tool wrote the same number of rows.
#
# W2: the document shape, {"stop_times":[…],"trips":[…],"routes":[…],"stops":[…]} with every
# reference pointing forward (3,000,000 stop times, 100,000 trips, 1,000 routes, 13,000 stops
# at scale 1), into models/document.json's layout (identities, four to-one links):
#
#   sluice            sluice import --model LargeFixtures/models/document.json w2.json (cold)
#   sluice re-import  the same command again on the same database: must write nothing
#   sqlite3           the DDL of `sluice schema`, then INSERT … SELECT … FROM
#                     json_each(readfile('w2.json'), '$.stops') per array, then every link
#                     with UPDATE … FROM on the identity columns, one transaction
#
# Checks that both databases hold the same rows (counts, non-null links per fk column, and
# the rows themselves with links compared by the target's identity) and that the re-import
# wrote no row; prints the targets (`docs/performance.md`): sluice cold <= 0.5x sqlite3, peak RSS
# < 48 MiB, re-import <= 0.7x cold.
#
# Python tools go into a venv in a temporary folder, removed at the end with the inputs and
# databases; missing Debian packages (sqlite3, time, and for W1 gcc, libsqlite3-dev,
# libyajl-dev, python3-venv) are installed with apt-get. --only names W1's tools; of them
# "sluice" (cold and re-import) and "sqlite3" also run in W2. Exits 1 if a check fails.
#
# This VM's wall times move by up to 30% from run to run, so every tool runs --runs times
# (default 3) in interleaved rounds, and the tables show each tool's median with the range;
# peak RSS is the largest of the runs.
#
#   Benchmarks/compare.sh [--workload w1|w2|all] [--scale S] [--runs N] [--only "sluice duckdb ..."] [--keep]
set -euo pipefail
cd "$(dirname "$0")/.."
scale=1
only="sluice sqlite3 sqlite-utils duckdb c-insert yajl-parse"
keep=""
workload=all
runs=3
usage() { echo "usage: $0 [--workload w1|w2|all] [--scale S] [--runs N] [--only \"TOOLS\"] [--keep]" >&2; exit 64; }
while [ $# -gt 0 ]; do
    case "$1" in
        --workload) workload=${2:-}; shift 2 || usage ;;
        --scale) scale=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --runs) runs=${2:-}; shift 2 || usage; [[ "$runs" =~ ^[1-9][0-9]*$ ]] || usage ;;
        --keep) keep=1; shift ;;
        *) usage ;;
    esac
done
case "$workload" in
    w1) w1=1; w2="" ;;
    w2) w1=""; w2=1 ;;
    all) w1=1; w2=1 ;;
    *) usage ;;
esac
status=0

need=()
command -v sqlite3 >/dev/null || need+=(sqlite3)
[ -x /usr/bin/time ] || need+=(time)
if [ -n "$w1" ]; then
    command -v gcc >/dev/null || need+=(gcc)
    [ -e /usr/include/sqlite3.h ] || need+=(libsqlite3-dev)
    [ -e /usr/include/yajl/yajl_parse.h ] || need+=(libyajl-dev)
    python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
fi
if [ ${#need[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sluice-compare.XXXXXX")
if [ -z "$keep" ]; then trap 'rm -rf "$tmp"' EXIT; else echo "keeping $tmp"; fi

scratch=${SLUICE_SCRATCH:-.build-bench}
echo "building sluice and sluice-fixtures (release)..." >&2
swift build -c release --scratch-path "$scratch" --product sluice >/dev/null
swift build -c release --scratch-path "$scratch" --product sluice-fixtures >/dev/null
bin=$scratch/release

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
    gcc -O2 -o "$tmp/yajl_parse" Benchmarks/compare/yajl_parse.c -lyajl

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
        run duckdb "$tmp/duckdb.sqlite" "$tmp/venv/bin/python" Benchmarks/compare/duckdb_import.py "$tmp/w1.json" "$tmp/duckdb.sqlite" "${extensions:-}"
        run c-insert "$tmp/c.sqlite" "$tmp/insert_loop" "$tmp/w1.tsv" "$tmp/c.sqlite"
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
    awk -F'\t' '
        $2 != "failed" { seconds[$1] = $2 }
        function ratio(a, b) { return (a in seconds) && (b in seconds) && seconds[b] > 0 ? sprintf("%.2f", seconds[a] / seconds[b]) : "-" }
        END {
            printf "sluice / duckdb = %s (target < 1)\n", ratio("sluice", "duckdb")
            printf "sluice / c-insert = %s (target <= 1.2)\n", ratio("sluice", "c-insert")
        }' "$tmp/medians"
    awk -F'\t' '$4 != "-" && $4 != "" { n[$4]++ } END { if (length(n) > 1) { print "WARNING: the tools wrote different row counts"; exit 1 } }' "$tmp/results" || status=1
fi

if [ -n "$w2" ]; then
    [ -z "$w1" ] || [ -n "$keep" ] || rm -f "$tmp/w1.json" "$tmp/w1.ndjson" "$tmp/w1.tsv"
    model=LargeFixtures/models/document.json
    doc=$tmp/w2.json
    sluicedb=$tmp/w2-sluice.sqlite
    shelldb=$tmp/w2-sqlite3.sqlite
    echo "generating W2 (document) at scale $scale..." >&2
    "$bin/sluice-fixtures" --shape document --scale "$scale" --counts --output "$doc" 2>"$tmp/w2.counts"
    bytes=$(stat -c %s "$doc")
    sync

    # The sqlite3 shell doing what the model describes: the tables, identity indexes and fk
    # columns of `sluice schema`, each JSON key into its attribute's column (defaults where the
    # model has one), then the links by identity. Trips and stops are kept as JSON values in
    # temporary tables because route_id and parent_station are not columns; stop_times and
    # routes go straight from json_each to their tables.
    {
        echo "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
        echo "BEGIN;"
        "$bin/sluice" schema --model "$model"
        cat <<SQL
CREATE TEMP TABLE trips_json AS SELECT value FROM json_each(readfile('$doc'), '\$.trips');
CREATE TEMP TABLE stops_json AS SELECT value FROM json_each(readfile('$doc'), '\$.stops');
INSERT INTO stop_times (tripID, sequence, arrival, departure, stopID, pickupType, dropOffType, distance)
  SELECT value->>'trip_id', value->>'stop_sequence', value->>'arrival_time', value->>'departure_time', value->>'stop_id',
         coalesce(value->>'pickup_type', 0), coalesce(value->>'drop_off_type', 0), value->>'shape_dist_traveled'
  FROM json_each(readfile('$doc'), '\$.stop_times');
INSERT INTO trips (tripID, serviceID, headsign, direction, shapeID, wheelchairAccessible)
  SELECT value->>'trip_id', value->>'service_id', value->>'trip_headsign', value->>'direction_id', value->>'shape_id',
         value->>'wheelchair_accessible'
  FROM trips_json;
INSERT INTO routes (routeID, agencyID, shortName, longName, type, color)
  SELECT value->>'route_id', value->>'agency_id', value->>'route_short_name', value->>'route_long_name', value->>'route_type',
         value->>'route_color'
  FROM json_each(readfile('$doc'), '\$.routes');
INSERT INTO stops (stopID, name, lat, lon, locationType, wheelchairBoarding)
  SELECT value->>'stop_id', value->>'stop_name', value->>'stop_lat', value->>'stop_lon', coalesce(value->>'location_type', 0),
         value->>'wheelchair_boarding'
  FROM stops_json;
UPDATE stop_times SET trip_pk = trips.pk FROM trips WHERE trips.tripID = stop_times.tripID;
UPDATE stop_times SET stop_pk = stops.pk FROM stops WHERE stops.stopID = stop_times.stopID;
UPDATE trips SET route_pk = routes.pk
  FROM trips_json JOIN routes ON routes.routeID = trips_json.value->>'route_id'
  WHERE trips.tripID = trips_json.value->>'trip_id';
UPDATE stops SET parent_pk = parent.pk
  FROM stops_json JOIN stops AS parent ON parent.stopID = stops_json.value->>'parent_station'
  WHERE stops.stopID = stops_json.value->>'stop_id';
COMMIT;
SQL
    } >"$tmp/w2-sqlite3.sql"

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
    haveSluice="" haveShell=""
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
        if [[ " $only " == *" sqlite3 "* ]] && run2 sqlite3 sqlite3 -bail "$shelldb" ".read $tmp/w2-sqlite3.sql"; then
            haveShell=1
        fi
    done
    medians "$tmp/results2" >"$tmp/medians2"

    # Per table: rows; per fk column: links set. Then the rows themselves, links compared by the
    # target's identity: with unique identities and equal counts, one EXCEPT shows any difference.
    counts='SELECT (SELECT count(*) FROM stop_times), (SELECT count(*) FROM trips), (SELECT count(*) FROM routes), (SELECT count(*) FROM stops),
        (SELECT count(trip_pk) FROM stop_times), (SELECT count(stop_pk) FROM stop_times), (SELECT count(route_pk) FROM trips), (SELECT count(parent_pk) FROM stops)'
    labels="stop_times trips routes stops stop_times.trip_pk stop_times.stop_pk trips.route_pk stops.parent_pk"
    [ -z "$haveSluice" ] || sluiceCounts=$(sqlite3 -separator ' ' "$sluicedb" "$counts")
    [ -z "$haveShell" ] || shellCounts=$(sqlite3 -separator ' ' "$shelldb" "$counts")
    if [ -n "$haveSluice" ] && [ -n "$haveShell" ]; then
        differing=$(sqlite3 -separator ' ' "$sluicedb" "ATTACH '$shelldb' AS q;
            SELECT (SELECT count(*) FROM (
                SELECT a.tripID, a.sequence, a.arrival, a.departure, a.stopID, a.pickupType, a.dropOffType, a.distance, t.tripID, s.stopID
                  FROM main.stop_times a LEFT JOIN main.trips t ON t.pk = a.trip_pk LEFT JOIN main.stops s ON s.pk = a.stop_pk
                EXCEPT
                SELECT a.tripID, a.sequence, a.arrival, a.departure, a.stopID, a.pickupType, a.dropOffType, a.distance, t.tripID, s.stopID
                  FROM q.stop_times a LEFT JOIN q.trips t ON t.pk = a.trip_pk LEFT JOIN q.stops s ON s.pk = a.stop_pk)),
            (SELECT count(*) FROM (
                SELECT a.tripID, a.serviceID, a.headsign, a.direction, a.shapeID, a.wheelchairAccessible, r.routeID
                  FROM main.trips a LEFT JOIN main.routes r ON r.pk = a.route_pk
                EXCEPT
                SELECT a.tripID, a.serviceID, a.headsign, a.direction, a.shapeID, a.wheelchairAccessible, r.routeID
                  FROM q.trips a LEFT JOIN q.routes r ON r.pk = a.route_pk)),
            (SELECT count(*) FROM (
                SELECT routeID, agencyID, shortName, longName, type, color FROM main.routes
                EXCEPT
                SELECT routeID, agencyID, shortName, longName, type, color FROM q.routes)),
            (SELECT count(*) FROM (
                SELECT a.stopID, a.name, a.lat, a.lon, a.locationType, a.wheelchairBoarding, p.stopID
                  FROM main.stops a LEFT JOIN main.stops p ON p.pk = a.parent_pk
                EXCEPT
                SELECT a.stopID, a.name, a.lat, a.lon, a.locationType, a.wheelchairBoarding, p.stopID
                  FROM q.stops a LEFT JOIN q.stops p ON p.pk = a.parent_pk))")
    fi

    records=$(echo "${sluiceCounts:-${shellCounts:-0 0 0 0}}" | awk '{ print $1 + $2 + $3 + $4 }')
    echo
    echo "W2: document (stop times, trips, routes, stops; references forward), scale $scale, $(awk -v b="$bytes" 'BEGIN { printf "%.0f MB", b / 1e6 }') JSON, $records records; $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'); $(date -u +%Y-%m-%d); median of $runs runs"
    awk -F'\t' -v records="$records" '
        NR == FNR { if ($1 == "sluice" && $2 != "failed") { base = $2; baseRss = $5 } ; next }
        FNR == 1 { printf "%-17s %9s %11s %10s %12s %12s %12s\n", "tool", "seconds", "range", "records/s", "peak RSS MiB", "time/sluice", "RSS/sluice" }
        $2 == "failed" { printf "%-17s %9s\n", $1, "failed"; next }
        {
            printf "%-17s %9.2f %11s %10s %12.1f %12s %12s\n", $1, $2, sprintf("%.1f-%.1f", $3, $4),
                ($2 > 0 ? sprintf("%.0f", records / $2) : "-"), $5 / 1024,
                base ? sprintf("%.2fx", $2 / base) : "-", baseRss ? sprintf("%.2fx", $5 / baseRss) : "-"
        }' "$tmp/medians2" "$tmp/medians2"
    awk -F'\t' '
        $2 != "failed" { seconds[$1] = $2; rss[$1] = $5 }
        function ratio(a, b) { return (a in seconds) && (b in seconds) && seconds[b] > 0 ? sprintf("%.2f", seconds[a] / seconds[b]) : "-" }
        END {
            printf "re-import / cold = %s (target <= 0.7)\n", ratio("sluice re-import", "sluice")
            printf "sluice cold / sqlite3 = %s (target <= 0.5)\n", ratio("sluice", "sqlite3")
            printf "sluice peak RSS = %s MiB (target < 48)\n", ("sluice" in rss) ? sprintf("%.1f", rss["sluice"] / 1024) : "-"
        }' "$tmp/medians2"

    if [ -n "$haveSluice" ] && [ -n "$haveShell" ]; then
        printf '%-20s %10s %10s\n' "rows / links" "sluice" "sqlite3"
        paste <(tr ' ' '\n' <<<"$labels") <(tr ' ' '\n' <<<"$sluiceCounts") <(tr ' ' '\n' <<<"$shellCounts") |
            awk -F'\t' '{ printf "%-20s %10s %10s%s\n", $1, $2, $3, $2 == $3 ? "" : "   DIFFERENT" }'
        if [ "$sluiceCounts" != "$shellCounts" ]; then
            echo "ERROR: sluice's and sqlite3's databases hold different row or link counts"; status=1
        fi
        if [ "$differing" != "0 0 0 0" ]; then
            echo "ERROR: rows in sluice's database missing from sqlite3's (stop_times trips routes stops): $differing"; status=1
        fi
    fi
fi
exit $status
