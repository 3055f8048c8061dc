#!/usr/bin/env python3
"""Convert a GTFS feed (a zip of CSV files) to JSON for Sluice, with the standard library only.

    python3 LargeFixtures/gtfs_to_json.py Examples/gtfs/feeds/nyc_subway_gtfs.zip -o nyc.json
    sluice import --db nyc.sqlite --model LargeFixtures/models/document.json nyc.json

Shapes (--shape):
  document  (default) one object {"stop_times": [...], "trips": [...], "routes": [...],
            "stops": [...]}, in that order so every reference points forward
            (LargeFixtures/models/document.json); other GTFS tables are left out unless
            --all-tables, which appends them (agency, calendar, ...) after "stops".
  nested    {"trips": [{..., "stop_times": [...]}], "routes": [...], "stops": [...]}: each
            trip holds its stop times without trip_id (LargeFixtures/models/nested.json).
  flat      a JSON array of the stop times (LargeFixtures/models/flat.json).
  ndjson    the stop times, one object per line (LargeFixtures/models/ndjson.json).

Values: numeric GTFS fields become JSON numbers (integers or doubles as written), every other
field stays a string (ids, times past 24:00, dates); empty fields are omitted. Within stops,
platforms come before the stations they name as parent_station.
"""
import argparse
import csv
import io
import json
import sys
import zipfile

INTEGER_FIELDS = {
    "stop_sequence", "pickup_type", "drop_off_type", "timepoint", "location_type",
    "wheelchair_boarding", "route_type", "direction_id", "wheelchair_accessible",
    "bikes_allowed", "continuous_pickup", "continuous_drop_off", "route_sort_order",
    "exact_times", "headway_secs", "start_time_secs", "shape_pt_sequence", "transfer_type",
    "min_transfer_time", "exception_type", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday",
}
DOUBLE_FIELDS = {"stop_lat", "stop_lon", "shape_dist_traveled", "shape_pt_lat", "shape_pt_lon"}
CORE_TABLES = ("stop_times", "trips", "routes", "stops")


def number(text):
    """The field as an int or float when it is one, else the text unchanged (real feeds have quirks)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
        return value if value == value and abs(value) != float("inf") else text
    except ValueError:
        return text


def rows(feed, table):
    """The rows of `table`.txt as dicts: typed values, empty fields omitted."""
    name = table + ".txt"
    if name not in feed.namelist():
        return
    with feed.open(name) as raw:
        reader = csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8-sig", newline=""))
        for row in reader:
            record = {}
            for key, value in row.items():
                if key is None or value is None:
                    continue
                key = key.strip()
                value = value.strip()
                if value == "":
                    continue
                if key in INTEGER_FIELDS or key in DOUBLE_FIELDS:
                    record[key] = number(value)
                else:
                    record[key] = value
            yield record


def stops_platforms_first(feed):
    """Stops, each station after the stops naming it as parent (forward references)."""
    stops = list(rows(feed, "stops"))
    parents = {stop["parent_station"] for stop in stops if "parent_station" in stop}
    return [s for s in stops if s.get("stop_id") not in parents] + [s for s in stops if s.get("stop_id") in parents]


def dump(record):
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write_array(out, records):
    out.write("[")
    first = True
    for record in records:
        out.write("\n" if first else ",\n")
        out.write(dump(record))
        first = False
    out.write("\n]")


def convert(feed, shape, out, all_tables=False):
    if shape == "flat":
        write_array(out, rows(feed, "stop_times"))
        out.write("\n")
    elif shape == "ndjson":
        for record in rows(feed, "stop_times"):
            out.write(dump(record) + "\n")
    elif shape in ("document", "nested"):
        out.write("{")
        if shape == "document":
            out.write('"stop_times":')
            write_array(out, rows(feed, "stop_times"))
            out.write(',\n"trips":')
            write_array(out, rows(feed, "trips"))
        else:
            by_trip = {}
            for record in rows(feed, "stop_times"):
                by_trip.setdefault(record.pop("trip_id", None), []).append(record)
            trips = []
            for trip in rows(feed, "trips"):
                times = sorted(by_trip.get(trip.get("trip_id"), []), key=lambda r: r.get("stop_sequence", 0))
                trips.append(dict(trip, stop_times=times))
            out.write('"trips":')
            write_array(out, trips)
        out.write(',\n"routes":')
        write_array(out, rows(feed, "routes"))
        out.write(',\n"stops":')
        write_array(out, stops_platforms_first(feed))
        if all_tables:
            for name in sorted(feed.namelist()):
                table = name[:-4]
                if name.endswith(".txt") and table not in CORE_TABLES:
                    out.write(",\n" + json.dumps(table) + ":")
                    write_array(out, rows(feed, table))
        out.write("}\n")
    else:
        raise ValueError("unknown shape " + shape)


def main():
    parser = argparse.ArgumentParser(description="Convert a GTFS zip to JSON for Sluice.")
    parser.add_argument("feed", help="a GTFS .zip, e.g. Examples/gtfs/feeds/cairns_gtfs.zip")
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    parser.add_argument("--shape", choices=["document", "nested", "flat", "ndjson"], default="document")
    parser.add_argument("--all-tables", action="store_true", help="document/nested: append the other GTFS tables")
    args = parser.parse_args()
    with zipfile.ZipFile(args.feed) as feed:
        if args.output:
            with open(args.output, "w", encoding="utf-8", newline="\n") as out:
                convert(feed, args.shape, out, args.all_tables)
        else:
            convert(feed, args.shape, sys.stdout, args.all_tables)


if __name__ == "__main__":
    main()
