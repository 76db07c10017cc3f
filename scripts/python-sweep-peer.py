#!/usr/bin/env python3
"""The walker forensic tools carry today, in Python: what `archivist sweep` does, with plistlib
and sqlite3, as iLEAPP, mac_apt and APOLLO each hand-write it.

It walks folders (os.walk, no symbolic links), and reads zips and tars (zipfile, tarfile) in
place. Each file's first 4 KiB say what it is, by content: a binary plist (`bplist`), an XML
plist (`<plist` after a declaration), an SQLite database, a zip or a tar; anything else is noise.
Plists are read with plistlib; a keyed archive (a dict with `$archiver`) has its classes listed
from `$objects` and judged against the transformer's default allow-list; data values holding a
plist are read as nested items. Databases are opened read-only (`?immutable=1`) with sqlite3 and
every BLOB and TEXT cell that holds a plist is an item, with its table, column and rowid.
Databases inside containers are copied to a temporary file first. OpenStep plists are not read:
plistlib cannot. One JSON line per item, then a summary line, as `sweep --format jsonl`.

    python3 scripts/python-sweep-peer.py PATH... [-o OUT]

scripts/sweep-benchmark runs it beside `archivist sweep` on the same tree.
"""

import argparse
import io
import json
import os
import plistlib
import shutil
import sqlite3
import sys
import tarfile
import tempfile
import time
import zipfile

HEAD = 4096
DEFAULT_ALLOWED = {"NSArray", "NSDictionary", "NSSet", "NSString", "NSNumber", "NSDate", "NSData", "NSURL", "NSUUID", "NSNull",
                   "NSMutableArray", "NSMutableDictionary", "NSMutableSet", "NSMutableString", "NSMutableData", "NSDecimalNumber"}


def sniff(head):
    if head.startswith(b"bplist"):
        return "binary"
    if head.startswith(b"SQLite format 3\x00"):
        return "sqlite"
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if len(head) >= 262 and head[257:262] == b"ustar" or head.startswith(b"\x1f\x8b") or head.startswith(b"BZh"):
        return "tar"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith((b"<?xml", b"<!DOCTYPE", b"<plist")) and (b"<plist" in head or b"<!DOCTYPE plist" in head):
        return "xml"
    return None


class Sweep:
    def __init__(self, out):
        self.out = out
        self.summary = {"items": 0, "byKind": {}, "byClass": {}, "byVerdict": {}, "errors": 0, "examined": 0}

    def emit(self, record):
        s = self.summary
        s["items"] += 1
        s["byKind"][record["kind"]] = s["byKind"].get(record["kind"], 0) + 1
        for name in record.get("classes", {}):
            s["byClass"][name] = s["byClass"].get(name, 0) + 1
        if "verdict" in record:
            s["byVerdict"][record["verdict"]] = s["byVerdict"].get(record["verdict"], 0) + 1
        if "error" in record:
            s["errors"] += 1
        self.out.write(json.dumps(record) + "\n")

    # Documents

    def document(self, data, path, fmt, depth=0):
        try:
            value = plistlib.loads(data)
        except Exception as error:  # plistlib raises many kinds on damaged input
            self.emit({"path": path, "kind": "unreadable", "format": fmt, "size": len(data), "error": str(error) or type(error).__name__})
            return
        if isinstance(value, dict) and ("$archiver" in value or ("$top" in value and "$objects" in value)):
            self.archive(value, data, path, fmt, depth)
        else:
            self.emit({"path": path, "kind": "plist", "format": fmt, "size": len(data)})
            self.nested(value, path + "/root", depth)

    def archive(self, value, data, path, fmt, depth):
        objects = value.get("$objects")
        if not isinstance(objects, list) or value.get("$archiver") != "NSKeyedArchiver":
            self.emit({"path": path, "kind": "unreadable", "format": fmt, "size": len(data), "error": "not a keyed archive"})
            return
        classes = {}
        for obj in objects:
            if isinstance(obj, dict) and "$class" in obj:
                ref = obj["$class"]
                index = ref.data if isinstance(ref, plistlib.UID) else None
                if index is not None and index < len(objects) and isinstance(objects[index], dict):
                    name = objects[index].get("$classname", "?")
                    classes[name] = classes.get(name, 0) + 1
            elif isinstance(obj, str) and obj != "$null":
                classes["NSString"] = classes.get("NSString", 0) + 1
            elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
                classes["NSNumber"] = classes.get("NSNumber", 0) + 1
        refused = sorted(name for name in classes if name not in DEFAULT_ALLOWED)
        record = {"path": path, "kind": "keyedArchive", "format": fmt, "size": len(data), "classes": classes,
                  "verdict": "refused" if refused else "accepted"}
        if refused:
            record["refusedClasses"] = refused
        self.emit(record)
        for index, obj in enumerate(objects):
            if isinstance(obj, bytes):
                self.nested_data(obj, f"{path}/#{index}", depth)
            elif isinstance(obj, dict):
                for key, field in obj.items():
                    if isinstance(field, bytes):
                        self.nested_data(field, f"{path}/#{index}.{key}", depth)

    def nested(self, value, path, depth):
        # plistlib returns a list that contains itself for a binary plist with a cycle: each
        # container is walked once.
        stack = [(value, path)]
        seen = set()
        while stack:
            item, where = stack.pop()
            if isinstance(item, bytes):
                self.nested_data(item, where, depth)
            elif isinstance(item, (dict, list)) and id(item) not in seen:
                seen.add(id(item))
                if isinstance(item, dict):
                    stack.extend((v, f"{where}.{k}") for k, v in item.items())
                else:
                    stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))

    def nested_data(self, data, path, depth):
        if depth < 4 and len(data) >= 8:
            fmt = sniff(data[:HEAD])
            if fmt in ("binary", "xml"):
                self.document(data, path, fmt, depth + 1)

    # Databases

    def database(self, path, display, size):
        try:
            db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
            tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            core_data = "Z_PRIMARYKEY" in tables and "Z_METADATA" in tables
            for table in tables:
                if table.startswith("sqlite_") or (core_data and table.startswith("Z_")):
                    continue
                columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
                if not columns:
                    continue
                selected = ", ".join(f'"{c}"' for c in columns)
                try:
                    cursor = db.execute(f'SELECT rowid, {selected} FROM "{table}"')
                except sqlite3.Error:
                    cursor = db.execute(f'SELECT NULL, {selected} FROM "{table}"')
                for row in cursor:
                    for column, cell in zip(columns, row[1:]):
                        if isinstance(cell, str):
                            cell = cell.encode()
                        if isinstance(cell, bytes) and len(cell) >= 8:
                            fmt = sniff(cell[:HEAD])
                            if fmt in ("binary", "xml"):
                                self.document(cell, f"{display}#{table}.{column}[rowid={row[0]}]", fmt)
            db.close()
            self.emit({"path": display, "kind": "coreDataStore" if core_data else "sqlite", "size": size})
        except sqlite3.Error as error:
            self.emit({"path": display, "kind": "unreadable", "size": size, "error": str(error)})

    # Files and containers

    def file(self, path, display):
        self.summary["examined"] += 1
        try:
            with open(path, "rb") as f:
                head = f.read(HEAD)
                fmt = sniff(head)
                if fmt in ("binary", "xml"):
                    self.document(head + f.read(), display, fmt)
        except OSError as error:
            self.emit({"path": display, "kind": "unreadable", "size": 0, "error": str(error)})
            return
        if fmt == "sqlite":
            self.database(path, display, os.path.getsize(path))
        elif fmt == "zip":
            self.zip(path, display)
        elif fmt == "tar":
            self.tar(path, display)

    def member(self, read, name, display, size):
        self.summary["examined"] += 1
        head = read(HEAD)
        fmt = sniff(head)
        if fmt in ("binary", "xml"):
            self.document(head + read(), display, fmt)
        elif fmt == "sqlite":
            with tempfile.NamedTemporaryFile(suffix=".sqlite") as copy:
                copy.write(head)
                shutil.copyfileobj(type("R", (), {"read": lambda self, n=-1: read(n)})(), copy)
                copy.flush()
                self.database(copy.name, display, size)
        elif fmt in ("zip", "tar"):
            # A container in a container: zipfile needs to seek, so it is read into memory.
            inner = io.BytesIO(head + read())
            (self.zip if fmt == "zip" else self.tar)(inner, display)

    def zip(self, path, display):
        try:
            with zipfile.ZipFile(path) as archive:
                for info in archive.infolist():
                    if not info.is_dir():
                        with archive.open(info) as member:
                            self.member(member.read, info.filename, f"{display}!/{info.filename}", info.file_size)
        except (zipfile.BadZipFile, OSError, EOFError) as error:
            self.emit({"path": display, "kind": "unreadable", "size": 0, "error": str(error)})

    def tar(self, path, display):
        try:
            with (tarfile.open(fileobj=path, mode="r:*") if isinstance(path, io.BytesIO) else tarfile.open(path, "r:*")) as archive:
                for info in archive:
                    if info.isfile():
                        member = archive.extractfile(info)
                        name = info.name[2:] if info.name.startswith("./") else info.name
                        self.member(member.read, name, f"{display}!/{name}", info.size)
        except (tarfile.TarError, OSError, EOFError) as error:
            self.emit({"path": display, "kind": "unreadable", "size": 0, "error": str(error)})

    def walk(self, root):
        if os.path.isfile(root):
            self.file(root, root)
            return
        for folder, folders, files in os.walk(root):
            folders.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                if os.path.isfile(path) and not os.path.islink(path):
                    self.file(path, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    sys.setrecursionlimit(10000)
    out = open(args.output, "w") if args.output else sys.stdout
    sweep = Sweep(out)
    start = time.monotonic()
    for path in args.paths:
        sweep.walk(path)
    sweep.summary["seconds"] = round(time.monotonic() - start, 3)
    out.write(json.dumps({"summary": sweep.summary}) + "\n")


if __name__ == "__main__":
    main()
