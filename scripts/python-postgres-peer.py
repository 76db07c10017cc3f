#!/usr/bin/env python3
"""The route a backend team takes today to move a bytea column of UIColor archives to JSON, in Python.

psycopg reads the rows in keyset batches of 2,000 (never OFFSET), nska-deserialize decodes each
NSKeyedArchiver blob into a dict, json.dumps writes {"red", "green", "blue", "alpha"}, and one
UPDATE ... FROM unnest per batch writes the batch back in its own transaction. With --workers N,
N processes each take the rows whose key hashes to their part (the same split as
`archivist migrate --shard`). Rows already JSON are skipped. There is no verification and no
guard against a row the app changed meanwhile: that is what the scripts people write do.

    python3 scripts/python-postgres-peer.py URL --table T [--column payload] [--key id] [--workers N]
    python3 scripts/python-postgres-peer.py URL --table T --server-only   # the server's own ceiling

--server-only writes one precomputed JSON value into every row, in the same batches on one
connection: how fast the server itself takes the updates, with no decoding at all.

It prints one JSON line: rows converted, seconds, peak resident memory (KiB) of the largest process.
Exit status 2 when psycopg or nska-deserialize is not installed.
"""

import argparse
import json
import multiprocessing
import resource
import sys
import time

BATCH = 2000


def worker(url, table, column, key, part, parts, server_only, results):
    try:
        run(url, table, column, key, part, parts, server_only, results)
    except Exception as error:  # reported, so the parent does not wait forever
        print(f"python-postgres-peer: worker {part}: {error}", file=sys.stderr)
        results.put((0, 0))
        sys.exit(1)


def run(url, table, column, key, part, parts, server_only, results):
    import psycopg

    decode = None
    if not server_only:
        import nska_deserialize

        def decode(blob):
            fields = nska_deserialize.deserialize_plist_from_string(blob)
            return json.dumps({"red": fields["UIRed"], "green": fields["UIGreen"],
                               "blue": fields["UIBlue"], "alpha": fields["UIAlpha"]}).encode()

    fixed = json.dumps({"red": 0.5, "green": 0.5, "blue": 0.5, "alpha": 1.0}).encode()
    shard = f" AND (hashint8({key}::int8) & 2147483647) %% {parts} = {part}" if parts > 1 else ""
    first = f"SELECT {key}, {column} FROM {table} WHERE true{shard} ORDER BY {key} LIMIT {BATCH}"
    nxt = f"SELECT {key}, {column} FROM {table} WHERE {key} > %s{shard} ORDER BY {key} LIMIT {BATCH}"
    update = (f"UPDATE {table} AS t SET {column} = v.new FROM unnest(%s::bigint[], %s::bytea[]) AS v(k, new) "
              f"WHERE t.{key} = v.k")
    converted = 0
    with psycopg.connect(url) as connection:
        # As archivist's sessions do: with the shard filter the planner would otherwise start
        # parallel workers for every 2,000-row batch, which costs more than the batch.
        connection.execute("SET max_parallel_workers_per_gather = 0")
        connection.commit()
        last = None
        while True:
            with connection.transaction():
                rows = connection.execute(first if last is None else nxt, () if last is None else (last,)).fetchall()
                if not rows:
                    break
                last = rows[-1][0]
                keys, values = [], []
                for k, blob in rows:
                    if blob is None or (not server_only and bytes(blob[:1]) == b"{"):
                        continue
                    keys.append(k)
                    values.append(fixed if server_only else decode(bytes(blob)))
                if keys:
                    connection.execute(update, (keys, values))
                    converted += len(keys)
            if len(rows) < BATCH:
                break
    results.put((converted, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--table", required=True)
    parser.add_argument("--column", default="payload")
    parser.add_argument("--key", default="id")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--server-only", action="store_true")
    args = parser.parse_args()
    try:
        import psycopg  # noqa: F401
        if not args.server_only:
            import nska_deserialize  # noqa: F401
    except ImportError as error:
        print(f"python-postgres-peer: not installed: {error}", file=sys.stderr)
        return 2
    parts = 1 if args.server_only else max(1, args.workers)
    results = multiprocessing.Queue()
    start = time.perf_counter()
    processes = [multiprocessing.Process(target=worker, args=(args.url, args.table, args.column, args.key, part, parts,
                                                              args.server_only, results)) for part in range(parts)]
    for process in processes:
        process.start()
    outcomes = [results.get() for _ in processes]
    for process in processes:
        process.join()
    seconds = time.perf_counter() - start
    failed = any(process.exitcode != 0 for process in processes)
    print(json.dumps({"route": "server-only" if args.server_only else "psycopg+nska-deserialize", "workers": parts,
                      "converted": sum(c for c, _ in outcomes), "seconds": round(seconds, 3),
                      "peakRSSKiB": max(m for _, m in outcomes)}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
