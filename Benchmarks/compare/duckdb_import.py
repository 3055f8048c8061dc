"""DuckDB's read_json writing W1 into a SQLite file through its sqlite extension, or into a
PostgreSQL database through its postgres extension.
   python duckdb_import.py sqlite INPUT.json OUT.sqlite EXTENSION_DIRECTORY
   python duckdb_import.py postgres INPUT.json CONNINFO EXTENSION_DIRECTORY

CONNINFO is libpq's key=value form ("host=/tmp/x port=5432 user=me dbname=db"). The
extensions (sqlite_scanner, postgres_scanner) come from the duckdb-ext-* wheels, not DuckDB's
extension repository."""
import sys

import duckdb

kind, source, target, extensions = sys.argv[1:5]
extension = {"sqlite": "sqlite_scanner", "postgres": "postgres_scanner"}[kind]
con = duckdb.connect()
con.execute(f"SET extension_directory = '{extensions}'")
con.execute(f"LOAD {extension}")
con.execute(f"ATTACH '{target}' AS out (TYPE {kind})")
# Explicit columns: auto-detection would take "05:03:00" for a TIME and fail on "25:03:00".
con.execute(f"""
    CREATE TABLE out.stop_times AS SELECT * FROM read_json('{source}', format = 'array', columns = {{
        trip_id: 'VARCHAR', arrival_time: 'VARCHAR', departure_time: 'VARCHAR', stop_id: 'VARCHAR',
        stop_sequence: 'BIGINT', pickup_type: 'BIGINT', drop_off_type: 'BIGINT', shape_dist_traveled: 'DOUBLE'}})
""")
con.close()
