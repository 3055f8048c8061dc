"""DuckDB's read_json writing into a PostgreSQL database through its postgres extension.
   python duckdb_postgres.py INPUT.json CONNINFO EXTENSION_DIRECTORY

CONNINFO is libpq's key=value form ("host=/tmp/x port=5432 user=me dbname=db"). The
extension (postgres_scanner) comes from the duckdb-ext-postgres wheel, not DuckDB's
extension repository."""
import sys

import duckdb

source, conninfo, extensions = sys.argv[1:4]
con = duckdb.connect()
con.execute(f"SET extension_directory = '{extensions}'")
con.execute("LOAD postgres_scanner")
con.execute(f"ATTACH '{conninfo}' AS out (TYPE postgres)")
# Explicit columns: auto-detection would take "05:03:00" for a TIME and fail on "25:03:00".
con.execute(f"""
    CREATE TABLE out.stop_times AS SELECT * FROM read_json('{source}', format = 'array', columns = {{
        trip_id: 'VARCHAR', arrival_time: 'VARCHAR', departure_time: 'VARCHAR', stop_id: 'VARCHAR',
        stop_sequence: 'BIGINT', pickup_type: 'BIGINT', drop_off_type: 'BIGINT', shape_dist_traveled: 'DOUBLE'}})
""")
con.close()
