#!/usr/bin/env python3
"""Differential cross-check of `archivist unarchive` against nska_deserialize.

For every valid keyed archive of the shared corpus (../shared/corpus/INDEX.tsv rows with
is_keyed_archive == yes and deliberately_invalid not yes/ambiguous) this compares:

  ours:     `archivist unarchive FILE --to json --no-check` (the Codable-style payload),
            once per $top key;
  expected: nska_deserialize's result, normalized to the same payload shape.

nska_deserialize only interprets NSArray, NSDictionary, NSSet, NSString, NSDate and NSUUID
(by exact class name); every other object comes back as a dict of its raw fields, without its
class, with $null turned into '' and data as bytes. To compare it with our payload, the script
walks nska's result in step with the raw archive (read with plistlib), so that it knows each
node's class chain and where $null was, and turns the raw fields of the classes Archivist maps
(NSURL, NSNull, NSData, NSOrderedSet, NSCountedSet, NSIndexSet, NSValue, NSAttributedString,
NSLocale, NSTimeZone, NSError, NSDecimalNumber, UIColor/NSColor, _NSKeyedCoderOldStyleArray,
subclasses of the collections) into the payload the "Payload mapping" table (docs/payload-mapping.md) promises.
That mapping is re-implemented here from Apple's encodings, independently of Sources/.

Normalized forms: dates are seconds since 1970 (float, compared within 2 microseconds, since
nska rounds to microseconds); data is bytes (our base64 is decoded); sets compare
order-insensitively; a 4-byte real compares equal to our shortest float32 spelling.

Output: one line per archive and $top key: `same`, `DIFFERENT` (first differing key path and
both values), `nska failed`, `ours failed`, `both failed`, or `cycle` (the archive holds a
cycle; `unarchive` refuses cycles by design). Then a tally line.

Usage: scripts/cross-check-archives.py [--corpus DIR] [--archivist BIN] [-v] [FILE...]
Exit status: 0 when there is nothing to compare or no difference, 1 when any archive differs
or fails on our side only, 2 on a usage problem (no archivist binary).
"""

import argparse
import base64
import binascii
import contextlib
import csv
import datetime
import io
import json
import math
import os
import plistlib
import re
import struct
import subprocess
import sys
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_CORPUS = os.path.normpath(os.path.join(REPO, "..", "shared", "corpus"))
DEFAULT_BIN = os.path.join(REPO, ".build-diff", "release", "archivist")

EPOCH_1970 = datetime.datetime(1970, 1, 1)
SECONDS_1970_TO_2001 = 978307200.0
DATE_TOLERANCE = 2e-6

# ---------------------------------------------------------------------------------------------
# Expected-value wrappers


class Date(float):
    """A date, in seconds since 1970."""


class SetList(list):
    """An unordered collection (NSSet, NSCountedSet members)."""


class Loose:
    """A value the script cannot predict exactly; compared only by type name."""

    def __init__(self, why):
        self.why = why

    def __repr__(self):
        return "<any: %s>" % self.why


class CycleError(Exception):
    pass


# ---------------------------------------------------------------------------------------------
# The raw archive


def _cfuid_to_uid(v):
    if isinstance(v, dict):
        if len(v) == 1 and isinstance(v.get("CF$UID"), int):
            return plistlib.UID(v["CF$UID"])
        return {k: _cfuid_to_uid(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_cfuid_to_uid(x) for x in v]
    return v


def load_raw(path):
    with open(path, "rb") as f:
        p = plistlib.load(f)
    if isinstance(p, bytes):  # nska also unwraps a plist holding an archive as data
        p = plistlib.loads(p)
    return _cfuid_to_uid(p)


class Raw:
    def __init__(self, plist):
        self.objects = plist["$objects"]
        self.top = plist["$top"]

    def deref(self, r):
        """(uid or None, object) for a raw value."""
        if isinstance(r, plistlib.UID):
            return r.data, self.objects[r.data]
        return None, r

    def class_chain(self, obj):
        if not isinstance(obj, dict) or not isinstance(obj.get("$class"), plistlib.UID):
            return None
        c = self.objects[obj["$class"].data]
        chain = list(c.get("$classes") or [])
        name = c.get("$classname")
        if name is not None and (not chain or chain[0] != name):
            chain.insert(0, name)
        return chain


# How nska_deserialize (ccl_bplist.NSKeyedArchiver_common_objects_convertor) turns an object
# into a native value: by exact $classname and the presence of a key. Note its NSDate/NSUUID
# tests are `name not in ("NSDate")`, a substring test, reproduced here.
def nska_converts(name, obj):
    if name in ("NSMutableDictionary", "NSDictionary"):
        return "NS.keys" in obj and "NS.objects" in obj
    if name in ("NSArray", "NSMutableArray", "NSSet", "NSMutableSet"):
        return "NS.objects" in obj
    if name in ("NSString", "NSMutableString"):
        return "NS.string" in obj
    if isinstance(name, str) and name in "NSDate":
        return "NS.time" in obj
    if isinstance(name, str) and name in "NSUUID":
        return "NS.uuidbytes" in obj
    return False


# The classes whose payload Archivist maps specially (docs/payload-mapping.md); any other
# class is an object of its fields. A subclass maps as the first class of its chain known here.
KINDS = {
    "NSArray": "array", "NSMutableArray": "array",
    "NSSet": "set", "NSMutableSet": "set",
    "NSOrderedSet": "orderedSet", "NSMutableOrderedSet": "orderedSet",
    "NSCountedSet": "countedSet",
    "NSDictionary": "dictionary", "NSMutableDictionary": "dictionary",
    "NSString": "string", "NSMutableString": "string",
    "NSNumber": "number",
    "NSDecimalNumber": "decimalNumber",
    "NSData": "data", "NSMutableData": "data",
    "NSDate": "date",
    "NSNull": "null",
    "NSURL": "url",
    "NSUUID": "uuid",
    "NSAttributedString": "attributedString", "NSMutableAttributedString": "attributedString",
    "NSValue": "value",
    "NSIndexSet": "indexSet", "NSMutableIndexSet": "indexSet",
    "NSLocale": "locale",
    "NSTimeZone": "timeZone",
    "NSError": "error",
    "UIColor": "color", "NSColor": "color",
    "_NSKeyedCoderOldStyleArray": "oldStyleArray",
}


def kind_of(chain):
    for c in chain:
        if c in KINDS:
            return KINDS[c]
        if c == "NSObject":
            break
    return "object"


def unescape_key(k):
    # NSKeyedArchiver escapes a key that starts with "$" by doubling the "$".
    return k[1:] if isinstance(k, str) and k.startswith("$$") else k


# ---------------------------------------------------------------------------------------------
# Normalizing nska's result into the payload shape, guided by the raw archive

MISSING = object()  # nska has no value here (it dropped it, or the script lost track)
KEY = object()  # a dictionary key: nska only keeps str(key), so keys are read from the raw archive


class Expect:
    def __init__(self, raw):
        self.raw = raw
        self.stack = []

    # N: nska's value at this position (MISSING when nska dropped it); R: the raw value.
    def value(self, N, R):
        uid, obj = self.raw.deref(R)
        if uid == 0:
            return None  # $null; nska writes ''
        if uid is not None and uid in self.stack:
            raise CycleError("object #%d refers back to itself" % uid)
        chain = self.raw.class_chain(obj)
        if chain is None:
            return self.inline(N, obj)
        self.stack.append(uid)
        try:
            return self.object(N, obj, chain)
        finally:
            self.stack.pop()

    def inline(self, N, obj):
        if isinstance(obj, datetime.datetime):  # a plist date, not what Apple writes
            return Date((obj - EPOCH_1970).total_seconds())
        if isinstance(obj, plistlib.UID):
            return {"CF$UID": obj.data}
        if isinstance(obj, list):
            return [self.value(MISSING, x) for x in obj]
        if isinstance(obj, dict):
            return {k: self.value(MISSING, x) for k, x in obj.items()}
        if N is not MISSING and N is not KEY and not _same_scalar(N, obj):
            # nska read the scalar differently from plistlib: keep nska's reading so the
            # difference shows (unless it is only its "$null" -> None -> '' conversion).
            if not (obj == "$null" and N in ("", None)):
                return N
        return obj

    def field(self, N, name):
        if isinstance(N, dict) and name in N:
            return N[name]
        return MISSING

    def object(self, N, obj, chain):
        name = chain[0]
        kind = kind_of(chain)
        converted = nska_converts(name, obj)
        deref = lambda k: self.raw.deref(obj.get(k))[1] if k in obj else None  # noqa: E731

        if kind in ("array", "set"):
            items = obj.get("NS.objects")
            if not isinstance(items, list):
                return self.fields(N, obj)
            ns = N if converted else self.field(N, "NS.objects")
            out = self.elements(ns, items)
            return SetList(out) if kind == "set" else out
        if kind == "orderedSet":
            idx = sorted((int(k[len("NS.object."):]), k) for k in obj
                         if re.fullmatch(r"NS\.object\.\d+", k))
            return [self.value(self.field(N, k), obj[k]) for _, k in idx]
        if kind == "countedSet":
            idx = sorted((int(k[len("NS.object"):]), k) for k in obj
                         if re.fullmatch(r"NS\.object\d+", k))
            return SetList(self.value(self.field(N, k), obj[k]) for _, k in idx)
        if kind == "oldStyleArray":
            idx = sorted((int(k[1:]), k) for k in obj if re.fullmatch(r"\$\d+", k))
            return [self.value(self.field(N, k), obj[k]) for _, k in idx]
        if kind == "dictionary":
            return self.dictionary(N, obj, converted)
        if kind == "string":
            if "NS.string" in obj:
                s = N if converted else self.field(N, "NS.string")
                return self.value(s, obj["NS.string"])
            if "NS.bytes" in obj:
                b = deref("NS.bytes")
                return b.decode("utf-8") if isinstance(b, bytes) else Loose("NS.bytes")
            return self.fields(N, obj)
        if kind == "date":
            if converted and isinstance(N, datetime.datetime):
                return Date((N - EPOCH_1970).total_seconds())
            t = deref("NS.time")
            if isinstance(t, (int, float)):
                return Date(t + SECONDS_1970_TO_2001)
            return self.fields(N, obj)
        if kind == "uuid":
            if converted and isinstance(N, str):
                return N
            b = deref("NS.uuidbytes")
            if isinstance(b, bytes) and len(b) == 16:
                h = b.hex().upper()
                return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])
            return self.fields(N, obj)
        if kind == "data":
            if "NS.data" in obj:
                return self.value(self.field(N, "NS.data"), obj["NS.data"])
            if "NS.bytes" in obj:
                return self.value(self.field(N, "NS.bytes"), obj["NS.bytes"])
            return self.fields(N, obj)
        if kind == "null":
            return None
        if kind == "number":
            for k in ("NS.intval", "NS.dblval", "NS.boolval", "NS.number"):
                if k in obj:
                    return self.value(self.field(N, k), obj[k])
            return self.fields(N, obj)
        if kind == "url":
            if "NS.relative" not in obj:
                return self.fields(N, obj)
            rel = self.value(self.field(N, "NS.relative"), obj["NS.relative"])
            base = self.value(self.field(N, "NS.base"), obj.get("NS.base", plistlib.UID(0)))
            if not isinstance(rel, str) or (base is not None and not isinstance(base, str)):
                return Loose("URL with a non-string part")
            return urllib.parse.urljoin(base, rel) if base else rel
        if kind == "attributedString":
            if "NSString" in obj:
                return self.value(self.field(N, "NSString"), obj["NSString"])
            return self.fields(N, obj)
        if kind == "locale":
            if "NS.identifier" in obj:
                return {"identifier": self.value(self.field(N, "NS.identifier"), obj["NS.identifier"])}
            return self.fields(N, obj)
        if kind == "timeZone":
            if "NS.name" in obj:
                return {"identifier": self.value(self.field(N, "NS.name"), obj["NS.name"])}
            return self.fields(N, obj)
        if kind == "error":
            if "NSDomain" in obj and "NSCode" in obj:
                ui = obj.get("NSUserInfo", plistlib.UID(0))
                return {"domain": self.value(self.field(N, "NSDomain"), obj["NSDomain"]),
                        "code": self.value(self.field(N, "NSCode"), obj["NSCode"]),
                        "userInfo": self.value(self.field(N, "NSUserInfo"), ui)}
            return self.fields(N, obj)
        if kind == "indexSet":
            r = index_set(obj, deref)
            return r if r is not None else self.fields(N, obj)
        if kind == "value":
            r = ns_value(obj, deref)
            return r if r is not None else self.fields(N, obj)
        if kind == "decimalNumber":
            r = decimal_number(obj, deref)
            return r if r is not None else self.fields(N, obj)
        if kind == "color":
            r = color(obj, deref)
            return r if r is not None else self.fields(N, obj)
        return self.fields(N, obj)

    def elements(self, ns, items):
        if isinstance(ns, list) and len(ns) == len(items):
            return [self.value(n, r) for n, r in zip(ns, items)]
        return [self.value(MISSING, r) for r in items]

    def fields(self, N, obj):
        out = {}
        for k, r in obj.items():
            if k == "$class":
                continue
            out[unescape_key(k)] = self.value(self.field(N, k), r)
        return out

    def dictionary(self, N, obj, converted):
        keys, vals = obj.get("NS.keys"), obj.get("NS.objects")
        if not isinstance(keys, list) or not isinstance(vals, list) or len(keys) != len(vals):
            # the NS.key.i / NS.object.i form of older archives
            ks = sorted((int(k[7:]), k) for k in obj if re.fullmatch(r"NS\.key\.\d+", k))
            if not ks:
                return self.fields(N, obj)
            keys = [obj[k] for _, k in ks]
            vals = [obj.get("NS.object.%d" % i, plistlib.UID(0)) for i, _ in ks]
            converted = False
        ns = N if converted else None
        if not converted and isinstance(N, dict):
            kk, vv = N.get("NS.keys"), N.get("NS.objects")
        else:
            kk = vv = None
        pairs = []
        for i, (rk, rv) in enumerate(zip(keys, vals)):
            k = self.value(kk[i] if isinstance(kk, list) and len(kk) == len(keys) else KEY, rk)
            if isinstance(ns, dict):
                n = ns.get(str(k), ns.get(k, MISSING)) if _hashable(k) else MISSING
            else:
                n = vv[i] if isinstance(vv, list) and len(vv) == len(vals) else MISSING
            pairs.append((k, self.value(n, rv)))
        if all(isinstance(k, str) for k, _ in pairs):
            return dict(pairs)
        if all(isinstance(k, int) and not isinstance(k, bool) for k, _ in pairs):
            return {str(k): v for k, v in pairs}
        flat = []
        for k, v in pairs:
            flat += [k, v]
        return flat


def _hashable(v):
    try:
        hash(v)
        return True
    except TypeError:
        return False


def _same_scalar(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (isinstance(a, bool) and isinstance(b, bool) and a == b)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b or (
        isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b)


# --- Apple encodings of the specially mapped classes -----------------------------------------

def _varints(b):
    out, cur, shift = [], 0, 0
    for byte in b:
        cur |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            out.append(cur)
            cur, shift = 0, 0
    return out if shift == 0 else None


def index_set(obj, deref):
    n = deref("NSRangeCount")
    if not isinstance(n, int):
        return None
    if n == 0:
        return []
    if n == 1 and "NSLocation" in obj:
        return [[deref("NSLocation"), deref("NSLength")]]
    d = deref("NSRangeData")
    if isinstance(d, dict):  # NSMutableData
        d = d.get("NS.data")
    if not isinstance(d, bytes):
        return None
    v = _varints(d)
    if v is None or len(v) != 2 * n:
        return None
    return [[v[i], v[i + 1]] for i in range(0, len(v), 2)]


def _nums(s, count):
    vals = re.findall(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+\-]?\d+)?|[-+]?inf|nan", s or "")
    if len(vals) != count:
        return None
    return [float(x) for x in vals]


def ns_value(obj, deref):
    sp = deref("NS.special")
    if sp == 1:
        v = _nums(deref("NS.pointval"), 2)
        return v
    if sp == 2:
        return _nums(deref("NS.sizeval"), 2)
    if sp == 3:
        v = _nums(deref("NS.rectval"), 4)
        return [[v[0], v[1]], [v[2], v[3]]] if v else None
    if sp == 4:
        return [deref("NS.rangeval.location"), deref("NS.rangeval.length")]
    if sp == 12:
        # UIEdgeInsets/NSEdgeInsets have no Codable form; Archivist writes the four fields in
        # declaration order, as an unkeyed container would.
        return [deref("NS.edgeval." + k) for k in ("top", "left", "bottom", "right")]
    return None


def decimal_number(obj, deref):
    m = deref("NS.mantissa")
    if isinstance(m, dict):
        m = m.get("NS.data")
    e, neg, length = deref("NS.exponent"), deref("NS.negative"), deref("NS.length")
    if not isinstance(m, bytes) or not isinstance(e, int):
        return None
    if length == 0 and neg:
        return Loose("NaN decimal")
    mant = 0
    for i in range(0, min(len(m), 2 * (length or 8)), 2):
        mant |= struct.unpack("<H", m[i:i + 2].ljust(2, b"\0"))[0] << (8 * i)
    v = mant * (10.0 ** e)
    return -v if neg else v


def color(obj, deref):
    if "UIRed" in obj:
        return {"red": deref("UIRed"), "green": deref("UIGreen"), "blue": deref("UIBlue"),
                "alpha": deref("UIAlpha")}
    rgb = deref("NSRGB")
    if isinstance(rgb, bytes):
        try:
            v = [float(x) for x in rgb.rstrip(b"\0").split()]
        except ValueError:
            return None
        if len(v) == 3:
            v.append(1.0)
        if len(v) == 4:
            return {"red": v[0], "green": v[1], "blue": v[2], "alpha": v[3],
                    "colorSpace": Loose("colorSpace")}
    return None


# ---------------------------------------------------------------------------------------------
# Comparison

def _b64(s):
    try:
        return base64.b64decode(s, validate=True)
    except (binascii.Error, ValueError, TypeError):
        return None


def _float32(x):
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except (OverflowError, struct.error):
        return None


def _fmt(v):
    if isinstance(v, Date):
        return "date %r (%s)" % (float(v), _iso(v))
    if isinstance(v, bytes):
        return "data(%d) %s" % (len(v), v[:24].hex() + ("…" if len(v) > 24 else ""))
    s = json.dumps(v, default=lambda o: repr(o), ensure_ascii=False)
    return s if len(s) <= 160 else s[:157] + "…"


def _iso(v):
    try:
        return (EPOCH_1970 + datetime.timedelta(seconds=float(v))).isoformat() + "Z"
    except (OverflowError, ValueError):
        return "?"


def _num_equal(exp, ours):
    if isinstance(ours, str) and isinstance(exp, float):
        special = {"NAN": math.nan, "INF": math.inf, "-INF": -math.inf}
        if ours in special:
            return (math.isnan(exp) and ours == "NAN") or exp == special[ours]
        return False
    if not isinstance(ours, (int, float)) or isinstance(ours, bool):
        return False
    if exp == ours:
        return True
    # a 4-byte real: we spell it in its shortest float32 form
    if isinstance(exp, float) and _float32(exp) == exp and _float32(ours) == exp:
        return True
    return False


def compare(exp, ours, path="root"):
    """None when equal, else (path, expected, ours)."""
    if isinstance(exp, Loose):
        return None
    if exp is None:
        return None if ours is None else (path, exp, ours)
    if isinstance(exp, bool):
        return None if ours is exp else (path, exp, ours)
    if isinstance(exp, Date):
        if isinstance(ours, (int, float)) and not isinstance(ours, bool) and \
                abs(float(ours) - float(exp)) <= DATE_TOLERANCE:
            return None
        return (path, exp, ours)
    if isinstance(exp, (int, float)):
        return None if _num_equal(exp, ours) else (path, exp, ours)
    if isinstance(exp, str):
        return None if ours == exp else (path, exp, ours)
    if isinstance(exp, bytes):
        if isinstance(ours, str) and _b64(ours) == exp:
            return None
        return (path, exp, _b64(ours) if isinstance(ours, str) and _b64(ours) is not None else ours)
    if isinstance(exp, SetList):
        if not isinstance(ours, list) or len(ours) != len(exp):
            return (path, exp, ours)
        left = list(ours)
        for i, e in enumerate(exp):
            for j, o in enumerate(left):
                if compare(e, o) is None:
                    del left[j]
                    break
            else:
                return ("%s[%d] (set member, not found among ours)" % (path, i), e, ours)
        return None
    if isinstance(exp, list):
        if not isinstance(ours, list):
            return (path, exp, ours)
        for i, (e, o) in enumerate(zip(exp, ours)):
            d = compare(e, o, "%s[%d]" % (path, i))
            if d:
                return d
        if len(exp) != len(ours):
            i = min(len(exp), len(ours))
            return ("%s[%d] (lengths %d vs %d)" % (path, i, len(exp), len(ours)),
                    exp[i] if i < len(exp) else "<absent>",
                    ours[i] if i < len(ours) else "<absent>")
        return None
    if isinstance(exp, dict):
        if not isinstance(ours, dict):
            return (path, exp, ours)
        for k in exp:
            sub = "%s.%s" % (path, k)
            if k not in ours:  # JSON output writes a nil field as null, never leaves it out
                return (sub, exp[k], "<absent>")
            d = compare(exp[k], ours[k], sub)
            if d:
                return d
        for k in ours:
            if k not in exp:
                return ("%s.%s" % (path, k), "<absent>", ours[k])
        return None
    return (path, exp, ours)


# ---------------------------------------------------------------------------------------------
# The two sides

def run_nska(nd, path):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):  # ccl_bplist prints some errors
        return nd.deserialize_plist(path, False, format=dict)


def run_ours(binary, path, top):
    cmd = [binary, "unarchive", path, "--to", "json", "--no-check",
           "--date-strategy", "secondsSince1970", "--data-strategy", "base64",
           "--non-conforming-floats", "INF,-INF,NAN"]
    if top is not None:
        cmd += ["--top", top]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        return None, (err[-1] if err else "exit %d" % p.returncode)
    try:
        return json.loads(p.stdout), None
    except ValueError as e:
        return None, "unreadable JSON: %s" % e


def corpus_rows(corpus):
    with open(os.path.join(corpus, "INDEX.tsv"), newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row.get("is_keyed_archive", "").strip() != "yes":
                continue
            if row.get("deliberately_invalid", "").strip() in ("yes", "ambiguous"):
                continue
            yield row["path"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS)
    ap.add_argument("--archivist", default=os.environ.get("ARCHIVIST", DEFAULT_BIN))
    ap.add_argument("-v", "--verbose", action="store_true", help="print both values in full")
    ap.add_argument("files", nargs="*", help="corpus-relative paths (default: all)")
    args = ap.parse_args()

    if not os.path.isfile(os.path.join(args.corpus, "INDEX.tsv")):
        print("cross-check-archives: skipped, no corpus at %s" % args.corpus)
        return 0
    try:
        import nska_deserialize as nd
    except ImportError:
        print("cross-check-archives: skipped, nska_deserialize is not installed")
        return 0
    if not os.access(args.archivist, os.X_OK):
        print("cross-check-archives: no archivist binary at %s; build it with\n"
              "  swift build -c release --scratch-path .build-diff --product archivist\n"
              "or pass --archivist BIN" % args.archivist, file=sys.stderr)
        return 2

    files = args.files or list(corpus_rows(args.corpus))
    tally = dict(archives=0, compared=0, same=0, different=0, nska_failed=0, ours_failed=0,
                 both_failed=0, cycle=0)
    for rel in files:
        path = os.path.join(args.corpus, rel)
        tally["archives"] += 1
        try:
            raw = Raw(load_raw(path))
            tops = list(raw.top.keys())
        except Exception as e:  # noqa: BLE001
            print("%s: both failed? plistlib cannot read it: %s" % (rel, e))
            tally["both_failed"] += 1
            continue
        try:
            nska = run_nska(nd, path)
            nska_err = None
        except BaseException as e:  # noqa: BLE001 - nska raises anything, RecursionError too
            if isinstance(e, KeyboardInterrupt):
                raise
            nska, nska_err = None, "%s: %s" % (type(e).__name__, str(e)[:120])
        for top in tops:
            label = rel if len(tops) == 1 else "%s [$top %s]" % (rel, top)
            tally["compared"] += 1
            n = MISSING
            if nska_err is None:
                n = nska if len(tops) == 1 else nska.get(top, MISSING)
                if n == "" and raw.top[top] == plistlib.UID(0):
                    n = None
            try:
                exp = Expect(raw).value(n, raw.top[top])
                cycle = None
            except CycleError as e:
                exp, cycle = None, str(e)
            except RecursionError:
                exp, cycle = None, "too deep"
            ours, ours_err = run_ours(args.archivist, path, None if top == "root" else top)
            if cycle:
                tally["cycle"] += 1
                print("%s: cycle (%s); ours: %s; nska: %s" % (
                    label, cycle, ("refused (by design): " + ours_err) if ours_err else "decoded?!",
                    nska_err or "decoded, dropping the back reference"))
                continue
            if nska_err and ours_err:
                tally["both_failed"] += 1
                print("%s: both failed: nska %s; ours %s" % (label, nska_err, ours_err))
                continue
            if nska_err:
                tally["nska_failed"] += 1
                print("%s: nska failed: %s" % (label, nska_err))
                continue
            if ours_err:
                tally["ours_failed"] += 1
                print("%s: ours failed: %s" % (label, ours_err))
                continue
            d = compare(exp, ours)
            if d is None:
                tally["same"] += 1
                print("%s: same" % label)
            else:
                tally["different"] += 1
                where, e, o = d
                print("%s: DIFFERENT at %s: expected %s, ours %s" % (label, where, _fmt(e), _fmt(o)))
                if args.verbose:
                    print("  expected: %s\n  ours:     %s" % (_fmt(exp), json.dumps(ours)))
    print("tally: %(archives)d archives, %(compared)d compared ($top entries), %(same)d same, "
          "%(different)d different, %(nska_failed)d nska failed, %(ours_failed)d ours failed, "
          "%(both_failed)d both failed, %(cycle)d cycles (refused by design)" % tally)
    return 1 if tally["different"] or tally["ours_failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
