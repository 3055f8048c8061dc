"""DuckDB's read_json writing into a SQLite file through its sqlite extension.
   python duckdb_import.py INPUT.json OUT.sqlite EXTENSION_DIRECTORY"""
import sys

import duckdb

source, target, extensions = sys.argv[1:4]
con = duckdb.connect()
con.execute(f"SET extension_directory = '{extensions}'")
con.execute("LOAD sqlite_scanner")
con.execute(f"ATTACH '{target}' AS out (TYPE sqlite)")
# Explicit columns: auto-detection would take "05:03:00" for a TIME and fail on "25:03:00".
con.execute(f"""
    CREATE TABLE out.stop_times AS SELECT * FROM read_json('{source}', format = 'array', columns = {{
        trip_id: 'VARCHAR', arrival_time: 'VARCHAR', departure_time: 'VARCHAR', stop_id: 'VARCHAR',
        stop_sequence: 'BIGINT', pickup_type: 'BIGINT', drop_off_type: 'BIGINT', shape_dist_traveled: 'DOUBLE'}})
""")
con.close()
