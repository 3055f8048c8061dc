"""W1's rows as CSV for PostgreSQL's COPY (no header; an empty unquoted field is NULL), made
from the JSON with DuckDB, outside the timed part of compare.sh.
   python w1_csv.py INPUT.json OUTPUT.csv"""
import sys

import duckdb

source, target = sys.argv[1:3]
con = duckdb.connect()
con.execute(f"""
    COPY (SELECT * FROM read_json('{source}', format = 'array', columns = {{
        trip_id: 'VARCHAR', arrival_time: 'VARCHAR', departure_time: 'VARCHAR', stop_id: 'VARCHAR',
        stop_sequence: 'BIGINT', pickup_type: 'BIGINT', drop_off_type: 'BIGINT', shape_dist_traveled: 'DOUBLE'}}))
    TO '{target}' (FORMAT csv, HEADER false)
""")
con.close()
