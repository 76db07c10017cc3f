#!/usr/bin/env python3
"""Cross-checks Archivist's typedstream reader against pytypedstream (PyPI), a peer reader.

For every stream listed in ../shared/corpus/typedstream/INDEX.tsv, both readers walk the stream
in the order it was written, and this compares, value by value:
  - the classes, in the order the stream introduces them, with their versions;
  - every string (NSString's `+` bytes, C strings, selectors) and every number (integers and
    reals, reals compared at the precision their type has), with its type code.

Archivist's side is `archivist inspect --format json --all-members`, whose `typedStream` member
holds each object's groups (type encoding and values) and the top-level groups; objects are
expanded where the stream introduces them, as the peer's events are. The peer's side is its
low-level `TypedStreamReader` events, which it reads without knowing any class.

    scripts/cross-check-typedstreams.py --archivist .build/release/archivist [--corpus DIR]

Prints one line per stream (`same`, or what differs) and a tally; exits 1 when a stream
differs or a reader fails on a stream the other reads, 0 otherwise. Known differences
(unsigned values written as negative integers, which the peer reads as unsigned bytes and C
reads as the type's bit pattern) are counted apart and listed in docs.
"""
import argparse
import base64
import json
import os
import struct
import subprocess
import sys

try:
    import typedstream
    from typedstream import stream as ts
except ImportError:
    print("cross-check skipped: pytypedstream is not installed (pip install pytypedstream)")
    sys.exit(0)


def split_types(encoding):
    """The types of an encoding string, as Objective-C writes them (qualifiers skipped)."""
    out, i = [], 0
    while i < len(encoding):
        start = i
        while encoding[i] in "rnNoORV":
            i += 1
        depth = 0
        while True:
            c = encoding[i]
            if c in "[{(":
                depth += 1
            elif c in "]})":
                depth -= 1
            elif c == "^":
                i += 1
                continue
            i += 1
            if depth == 0:
                break
        out.append(encoding[start:i])
    return out


def inner_types(t):
    """An array's element type and count, or a struct's field types."""
    if t.startswith("["):
        j = 1
        while t[j].isdigit():
            j += 1
        return int(t[1:j]), [t[j:-1]]
    if t.startswith("{") or t.startswith("("):
        body = t[1:-1]
        if "=" in body and not body.startswith("{"):
            name, _, rest = body.partition("=")
            if "{" not in name:
                body = rest
        return 1, split_types(body) if body else []
    return 1, []


def archivist_events(path, archivist):
    out = subprocess.run([archivist, "inspect", "--format", "json", "--all-members", path],
                         capture_output=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.decode("utf-8", "replace").strip())
    stream = json.loads(out.stdout)["typedStream"]
    classes = [(c["name"], c["version"]) for c in stream["classes"]]
    objects = {o["uid"]: o for o in stream["objects"]}
    events, seen = [], set()

    def value(t, v):
        t = t.lstrip("rnNoORV")
        if t.startswith("^"):
            return value(t[1:], v)
        if t.startswith("["):
            count, (element,) = inner_types(t)
            if element in ("c", "C"):
                events.append(("bytes", base64.b64decode(v["$data"])))
            else:
                for e in v:
                    value(element, e)
            return
        if t.startswith("{"):
            _, fields = inner_types(t)
            for ft, fv in zip(fields, v):
                value(ft, fv)
            return
        if t.startswith("("):
            return
        if t == "+":
            if v is not None:
                events.append(("string", base64.b64decode(v["$data"])))
        elif t in ("*", "%", ":"):
            if v is not None:
                events.append(("string", v.encode("utf-8") if isinstance(v, str) else base64.b64decode(v["$data"])))
        elif t in "cCsSiIlLqQB":
            events.append(("int", int(v)))
        elif t == "f":
            events.append(("float", struct.unpack("f", struct.pack("f", float(v)))[0]))
        elif t == "d":
            events.append(("float", float(v)))
        elif t == "@":
            if isinstance(v, dict) and "$ref" in v and v["$ref"] not in seen:
                seen.add(v["$ref"])
                for g in objects[v["$ref"]]["groups"]:
                    groups([g])

    def groups(gs):
        for g in gs:
            for t, v in zip(split_types(g["encoding"]), g["values"]):
                value(t, v)

    groups(stream["contents"])
    return classes, events


def peer_events(path):
    classes, events = [], []
    # Objects, classes and C strings share one numbering; a repeated C string is a reference.
    table = []
    with open(path, "rb") as f:
        reader = ts.TypedStreamReader(f)
        for event in reader:
            if isinstance(event, ts.BeginObject):
                table.append(None)
            elif isinstance(event, ts.SingleClass):
                table.append(None)
                classes.append((event.name.decode("utf-8", "replace"), event.version))
            elif isinstance(event, bytes):
                events.append(("string", event))
            elif isinstance(event, ts.CString):
                table.append(event.contents)
                events.append(("string", event.contents))
            elif isinstance(event, ts.ObjectReference) and event.referenced_type == ts.ObjectReference.Type.C_STRING:
                events.append(("string", table[event.number]))
            elif isinstance(event, ts.Selector):
                if event.name is not None:
                    events.append(("string", event.name))
            elif isinstance(event, ts.Atom):
                if event.contents is not None:
                    events.append(("string", event.contents))
            elif isinstance(event, bool):
                events.append(("int", int(event)))
            elif isinstance(event, int):
                events.append(("int", event))
            elif isinstance(event, float):
                events.append(("float", event))
            elif isinstance(event, ts.ByteArray):
                events.append(("bytes", event.data))
    return classes, events


def peer_payload(value, ancestors=()):
    """The payload `archivist unarchive --to json` gives of a value pytypedstream decoded, for the
    classes both readers know (Foundation's values, NSColor) and generic objects (their values
    in order, as `$0`, `$1`…); a reference back to an object on the path is `<cycle>`."""
    from typedstream import archiving
    from typedstream.types import foundation, appkit
    if value is None:
        return None
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return base64.b64encode(value).decode()
    if id(value) in ancestors:
        return "<cycle>"
    ancestors = ancestors + (id(value),)
    if isinstance(value, foundation.NSString):
        return value.value
    if isinstance(value, foundation.NSNumber):
        v = value.value
        if value.type_encoding == b"c" and v in (0, 1):
            return bool(v)
        return v
    if isinstance(value, foundation.NSValue):
        return peer_payload(value.value, ancestors)
    if isinstance(value, (foundation.NSArray, foundation.NSSet)):
        return [peer_payload(e, ancestors) for e in value.elements]
    if isinstance(value, foundation.NSDictionary):
        return {peer_payload(k, ancestors): peer_payload(v, ancestors) for k, v in value.contents.items()}
    if isinstance(value, foundation.NSData):
        return base64.b64encode(value.data).decode()
    if isinstance(value, appkit.NSColor) and value.kind in (appkit.NSColor.Kind.CALIBRATED_RGBA, appkit.NSColor.Kind.DEVICE_RGBA):
        v = value.value
        space = "calibratedRGB" if value.kind == appkit.NSColor.Kind.CALIBRATED_RGBA else "deviceRGB"
        return {"red": v.red, "green": v.green, "blue": v.blue, "alpha": v.alpha, "colorSpace": space}
    if isinstance(value, archiving.GenericArchivedObject):
        values = []
        for group in value.contents:
            values.extend(group.values)
        return {f"${i}": peer_payload(v, ancestors) for i, v in enumerate(values)}
    if isinstance(value, archiving.Array):
        if isinstance(value.elements, bytes):
            return base64.b64encode(value.elements).decode()
        return [peer_payload(e, ancestors) for e in value.elements]
    if isinstance(value, archiving.GenericStruct):
        return [peer_payload(f, ancestors) for f in value.fields]
    if hasattr(value, "x") and hasattr(value, "y"):
        return [value.x, value.y]
    if hasattr(value, "width") and hasattr(value, "height"):
        return [value.width, value.height]
    if isinstance(value, archiving.Class):
        return value.name.decode()
    return f"<{type(value).__name__}>"


def same_payload(a, b):
    """Payloads equal, reals to ten significant digits (NSColor's keyed text keeps ten)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_payload(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_payload(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool):
            return a == b
        return abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))
    return a == b


def ours_payload(path, archivist, top=None):
    arguments = [archivist, "unarchive", "--no-check", "--break-cycles", path, "--to", "json"]
    if top:
        arguments += ["--top", top]
    out = subprocess.run(arguments, capture_output=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.decode("utf-8", "replace").strip())

    def cycles(v):
        if isinstance(v, dict):
            return "<cycle>" if set(v) == {"$ref"} else {k: cycles(x) for k, x in v.items()}
        if isinstance(v, list):
            return [cycles(x) for x in v]
        return v
    return cycles(json.loads(out.stdout))


def payload_check(path, archivist):
    """Compares `unarchive` with the peer's decoding, for a stream whose root the peer decodes
    to classes both know: None when the peer cannot decode it or holds classes only it names."""
    try:
        with typedstream.Unarchiver.open(path) as unarchiver:
            groups = unarchiver.decode_all()
    except Exception:  # noqa: BLE001 - the peer's own limits
        return None
    if len(groups) == 1 and len(groups[0].values) == 1:
        theirs, top = peer_payload(groups[0].values[0]), None
    elif len(groups) >= 2 and groups[0].values == [1]:
        # A color list file: its colors, as `--top NSColors` gives them.
        theirs, top = [peer_payload(g.values[0]) for g in groups[2:]], "NSColors"
    else:
        return None
    if "<" in json.dumps(theirs).replace("<cycle>", ""):
        return None
    ours = ours_payload(path, archivist, top)
    return same_payload(ours, theirs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--archivist", required=True)
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus", "typedstream"))
    args = parser.parse_args()
    index = os.path.join(args.corpus, "INDEX.tsv")
    if not os.path.exists(index):
        print(f"cross-check skipped: {index} is absent")
        return 0
    with open(index, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    same = differ = known = payloads = 0
    for row in rows:
        path = os.path.join(args.corpus, row[0])
        try:
            ours = archivist_events(path, args.archivist)
        except Exception as error:  # noqa: BLE001 - any failure of ours is reported
            print(f"{row[0]}: archivist failed: {error}")
            differ += 1
            continue
        try:
            theirs = peer_events(path)
        except Exception as error:  # noqa: BLE001 - the peer's failures are counted apart
            print(f"{row[0]}: pytypedstream failed ({error}); archivist read it")
            known += 1
            continue
        problems = []
        if ours[0] != theirs[0]:
            problems.append(f"classes differ: {ours[0][:5]}… against {theirs[0][:5]}…")
        a, b = ours[1], theirs[1]
        if len(a) != len(b):
            problems.append(f"{len(a)} values against {len(b)}")
        unsigned_notes = 0
        for i, (x, y) in enumerate(zip(a, b)):
            if x == y:
                continue
            # An unsigned value the writer wrote as a negative one-byte integer: the peer masks
            # the byte (0xFF → 255), C reads the type's bit pattern (4294967295 for an I).
            if x[0] == y[0] == "int" and x[1] != y[1] and (x[1] & 0xFF) == y[1]:
                unsigned_notes += 1
                continue
            problems.append(f"value {i}: {x!r} against {y!r}")
            if len(problems) > 5:
                break
        payload = payload_check(path, args.archivist)
        if payload is False:
            problems.append("unarchive's payload differs from the peer's decoding")
        if payload is True:
            payloads += 1
        if problems:
            differ += 1
            print(f"{row[0]}: " + "; ".join(problems))
        else:
            same += 1
            extra = f" ({unsigned_notes} unsigned values read as C reads them)" if unsigned_notes else ""
            agreed = "; unarchive's payload the same as the peer's decoding" if payload else ""
            print(f"{row[0]}: same: {len(ours[0])} classes, {len(a)} strings and numbers{extra}{agreed}")
    print(f"typedstream cross-check: {same} same, {differ} different, {known} the peer cannot read; "
          f"{payloads} payloads compared with the peer's decoding, all the same" if not differ else
          f"typedstream cross-check: {same} same, {differ} different, {known} the peer cannot read")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
