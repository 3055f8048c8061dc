#!/usr/bin/env bash
# Peak RSS of `sluice import` for inputs of one shape at several sizes, streamed through
# stdin from the generator (no large file is written), and whether it stays flat (`docs/performance.md`:
# within 10% between a 0.5 GB and a 5 GB input).
#
#   Benchmarks/memory-flatness.sh                      # flat shape, scales 1.11 (0.5 GB) and 11.1 (5 GB)
#   Benchmarks/memory-flatness.sh --shape ndjson --scales "0.1 1"
#   Benchmarks/memory-flatness.sh --postgres           # into PostgreSQL: a throwaway cluster of its own
#   Benchmarks/memory-flatness.sh --coredata --shape document --scales "1.06 10.6"
#                                 # into a Core Data store (--layout coredata), through
#                                 # LargeFixtures/models/Document.xcdatamodel
#   Benchmarks/memory-flatness.sh --vacuum ...       # each import with --vacuum (a new file is
#                                 # built in 16 KiB pages and copied into its format at the end)
#   Benchmarks/memory-flatness.sh --shape gtfs --scales "1 14.7"
#                                 # a GTFS zip (W3: Benchmarks/peers/gen_gtfs.py; 14.7 is
#                                 # Germany's DELFI feed, 44M stop times), written to a
#                                 # temporary file first (a zip is read from a file), imported
#                                 # with the built-in model; the time of each import is printed
#
# Databases go to a temporary folder that is removed at the end; with --postgres, each scale
# imports into a new database of a cluster the script starts (`Benchmarks/postgres-cluster.sh`;
# initdb and pg_ctl from /usr/lib/postgresql/15/bin or $SLUICE_PG_BIN) and stops at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
shape=flat
scales="1.11 11.1"
pg=""
coredata=""
vacuum=()
while [ $# -gt 0 ]; do
    case "$1" in
        --shape) shape=$2; shift 2 ;;
        --scales) scales=$2; shift 2 ;;
        --postgres) pg=1; shift ;;
        --coredata) coredata=1; shift ;;
        --vacuum) vacuum=(--vacuum); shift ;;
        *) echo "usage: $0 [--shape flat|ndjson|document|nested|gtfs] [--scales \"S1 S2 ...\"] [--postgres | --coredata] [--vacuum]" >&2; exit 64 ;;
    esac
done
model=(--model "LargeFixtures/models/$shape.json")
[ "$shape" != gtfs ] || model=(--model gtfs)
if [ -n "$coredata" ]; then
    if [ "$shape" != document ] || [ -n "$pg" ]; then
        echo "--coredata imports the document shape into an SQLite file: give --shape document, not --postgres" >&2; exit 64
    fi
    model=(--layout coredata --model LargeFixtures/models/Document.xcdatamodel
           --root stop_times=StopTime --root trips=Trip --root routes=Route --root stops=Stop)
fi
pgbin=${SLUICE_PG_BIN:-/usr/lib/postgresql/15/bin}
need=()
[ -x /usr/bin/time ] || need+=(time)
[ -z "$pg" ] || [ -x "$pgbin/initdb" ] || need+=(postgresql)
if [ ${#need[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
scratch=${SLUICE_SCRATCH:-.build-bench}
swift build -c release --scratch-path "$scratch" --product sluice >/dev/null
swift build -c release --scratch-path "$scratch" --product sluice-fixtures >/dev/null
bin=$scratch/release
tmp=$(mktemp -d)
source Benchmarks/postgres-cluster.sh
trap 'stop_postgres; rm -rf "$tmp"' EXIT
[ -z "$pg" ] || start_postgres

printf '%-8s %12s %12s %10s %12s %14s\n' scale "input bytes" records seconds "records/s" "peak RSS MiB"
first=""
number=0
for scale in $scales; do
    number=$((number + 1))
    db=$tmp/flat-$scale.sqlite
    if [ -n "$pg" ]; then fresh "scale$number"; db=$(pguri "scale$number"); fi
    if [ "$shape" = gtfs ]; then
        python3 Benchmarks/peers/gen_gtfs.py "$scale" "$tmp/feed.zip" >/dev/null
        /usr/bin/time -v -o "$tmp/time.txt" "$bin/sluice" import --db "$db" "${model[@]}" ${vacuum[@]+"${vacuum[@]}"} "$tmp/feed.zip" 2>"$tmp/summary.txt"
        bytes=$(wc -c <"$tmp/feed.zip")
        rm -f "$tmp/feed.zip"
    else
        "$bin/sluice-fixtures" --shape "$shape" --scale "$scale" --counts 2>"$tmp/gen.txt" \
            | /usr/bin/time -v -o "$tmp/time.txt" "$bin/sluice" import --db "$db" "${model[@]}" ${vacuum[@]+"${vacuum[@]}"} 2>"$tmp/summary.txt"
        bytes=$(sed -n 's/^sluice-fixtures: \([0-9]*\) bytes.*/\1/p' "$tmp/gen.txt")
    fi
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): \([0-9]*\).*/\1/p' "$tmp/time.txt")
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): \(.*\)/\1/p' "$tmp/time.txt")
    seconds=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
    # The summary groups thousands with commas (3,330,000).
    records=$(sed -n 's/^sluice: imported \([0-9,]*\) records.*/\1/p' "$tmp/summary.txt" | tr -d ,)
    printf '%-8s %12s %12s %10.1f %12.0f %14.1f\n' "$scale" "$bytes" "$records" "$seconds" \
        "$(echo "$records / $seconds" | bc -l)" "$(echo "$rss / 1024" | bc -l)"
    sed 's/^/    /' "$tmp/summary.txt"
    if [ -n "$pg" ]; then psqlc postgres "DROP DATABASE scale$number"; else rm -f "$db"; fi
    if [ -z "$first" ]; then first=$rss; else last=$rss; fi
done
if [ -n "${last:-}" ]; then
    echo "peak RSS, largest vs smallest input: $(echo "scale=1; ($last - $first) * 100 / $first" | bc -l)%"
fi
