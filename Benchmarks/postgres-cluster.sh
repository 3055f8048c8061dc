# A throwaway PostgreSQL cluster for the benchmark scripts (sourced, not run):
#
#   pgbin=/usr/lib/postgresql/15/bin; source Benchmarks/postgres-cluster.sh
#   start_postgres                 # sets pgdir and port; defines pguri, psqlc and fresh
#   ... sluice import --db "$(pguri w1)" ...
#   stop_postgres                  # also safe when start_postgres never ran (call it in an EXIT trap)
#
# Its own folder (PostgreSQL's user must own it, so not under the caller's temporary folder),
# trust authentication for the superuser sluice, a free port, the Unix socket in the folder; as
# root the server runs as the user postgres. fsync, synchronous_commit and full_page_writes are
# off: every tool writes through the same server, and the disk's flushes would only add noise.
pgdir=""
runas=()

start_postgres() {
    pgdir=$(mktemp -d "${TMPDIR:-/tmp}/sluice-bench-pg.XXXXXX")
    if [ "$(id -u)" = 0 ]; then runas=(runuser -u postgres --); chown postgres: "$pgdir"; fi
    chmod 700 "$pgdir"
    echo "starting PostgreSQL ($pgbin) in $pgdir..." >&2
    "${runas[@]}" "$pgbin/initdb" -D "$pgdir/data" -A trust -U sluice -E UTF8 --no-locale --no-sync >/dev/null
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${runas[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w -t 120 \
        -o "-p $port -k $pgdir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_wal_size=4GB" \
        start >/dev/null
}

stop_postgres() {
    if [ -n "$pgdir" ]; then
        "${runas[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -m immediate -w stop >/dev/null 2>&1 || true
        rm -rf "$pgdir"
        pgdir=""
    fi
}

pguri() { echo "postgresql://sluice@/$1?host=$pgdir&port=$port"; }

psqlc() {  # database, sql: unaligned output, no notices
    PGOPTIONS='-c client_min_messages=warning' "$pgbin/psql" -X -q -At -v ON_ERROR_STOP=1 "$(pguri "$1")" -c "$2"
}

fresh() {  # database: dropped if there, created empty, and a checkpoint so no tool pays for the last one's writes
    psqlc postgres "DROP DATABASE IF EXISTS $1" && psqlc postgres "CREATE DATABASE $1" && psqlc postgres "CHECKPOINT"
}
