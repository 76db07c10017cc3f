#!/usr/bin/env python3
"""The route users take today to move a Core Data UIColor attribute to JSON, in Python.

sqlite3 reads each ZTINTCOLOR blob, a Python NSKeyedArchiver decoder (nska-deserialize or
bpylist2 from PyPI) turns it into a dict, json.dumps writes {"red", "green", "blue", "alpha"},
and an UPDATE stores it with Z_OPT bumped, 5,000 rows per transaction (as `archivist migrate`).
There is no backup and no verification: that is what the scripts people write do.

archivist-bench runs it on a copy of the store it migrates and prints the ratio:

    python3 scripts/python-migrate-peer.py STORE.sqlite [--decoder nska|bpylist2]

It prints one JSON line: decoder, rows converted, seconds, peak resident memory (KiB).
Exit status 2 when the chosen decoder is not installed.
"""

import argparse
import json
import resource
import sqlite3
import sys
import time


def nska_decoder():
    import nska_deserialize

    def decode(blob):
        # The root object's fields, as a dict: UIRed, UIGreen, UIBlue, UIAlpha, NSRGB, ...
        fields = nska_deserialize.deserialize_plist_from_string(blob)
        return {"red": fields["UIRed"], "green": fields["UIGreen"], "blue": fields["UIBlue"], "alpha": fields["UIAlpha"]}

    return decode


def bpylist2_decoder():
    from bpylist2 import archiver

    class UIColor:
        # bpylist2 refuses classes it has no mapping for; this is the mapping users write.
        @staticmethod
        def decode_archive(archive):
            return {"red": archive.decode("UIRed"), "green": archive.decode("UIGreen"),
                    "blue": archive.decode("UIBlue"), "alpha": archive.decode("UIAlpha")}

    archiver.update_class_map({"UIColor": UIColor})
    return archiver.unarchive


DECODERS = {"nska": nska_decoder, "bpylist2": bpylist2_decoder}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store")
    parser.add_argument("--decoder", choices=sorted(DECODERS), default="nska")
    parser.add_argument("--table", default="ZBOWTIE")
    parser.add_argument("--column", default="ZTINTCOLOR")
    parser.add_argument("--batch", type=int, default=5000)
    args = parser.parse_args()
    try:
        decode = DECODERS[args.decoder]()
    except ImportError as error:
        print(f"python-migrate-peer: {args.decoder} is not installed: {error}", file=sys.stderr)
        return 2

    start = time.perf_counter()
    connection = sqlite3.connect(args.store, isolation_level=None)
    select = f"SELECT Z_PK, {args.column} FROM {args.table} WHERE Z_PK > ? ORDER BY Z_PK LIMIT ?"
    update = f"UPDATE {args.table} SET {args.column} = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?"
    last, converted, failed = -1, 0, 0
    while True:
        rows = connection.execute(select, (last, args.batch)).fetchall()
        if not rows:
            break
        connection.execute("BEGIN IMMEDIATE")
        for pk, blob in rows:
            last = pk
            if blob is None or blob[:1] == b"{":
                continue
            try:
                color = decode(blob)
            except Exception:  # a damaged blob: leave it, as archivist does
                failed += 1
                continue
            connection.execute(update, (json.dumps(color, separators=(",", ":")).encode(), pk))
            converted += 1
        connection.execute("COMMIT")
    connection.close()
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"decoder": args.decoder, "converted": converted, "failed": failed,
                      "seconds": round(seconds, 3), "peakRSSKiB": peak}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
