#!/usr/bin/env python3
"""Whole-process timings for the model work, release build, commands alternated so that load
changes hit both sides of each ratio alike.

  scripts/measure-model.py [--groups N] [--rounds R]

1. `archivist model` on a private copy of the corpus Teams store (its Z_MODELCACHE): the
   issue asks under 50 ms;
2. `archivist scan` of a Palette store of N groups with its model against `scan --no-model`:
   the issue asks within 10%.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
archivist = os.path.join(root, ".build/release/archivist")
fixtures = os.path.join(root, ".build/release/archivist-fixtures")
corpus = os.path.join(os.path.dirname(root), "shared/corpus/stores")

parser = argparse.ArgumentParser()
parser.add_argument("--groups", type=int, default=200_000)
parser.add_argument("--rounds", type=int, default=10)
args = parser.parse_args()

def timed(command):
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start

work = tempfile.mkdtemp(prefix="archivist-measure-model-")
try:
    teams = os.path.join(work, "SkypeSpacesDogfood.sqlite")
    for suffix in ("", "-wal", "-shm"):
        source = os.path.join(corpus, "SkypeSpacesDogfood.sqlite" + suffix)
        if os.path.exists(source):
            shutil.copy(source, teams + suffix)
    times = [timed([archivist, "model", teams]) for _ in range(args.rounds)]
    print(f"model of the Teams store, whole process: median {statistics.median(times) * 1000:.1f} ms, best {min(times) * 1000:.1f} ms ({args.rounds} runs)")

    store = os.path.join(work, "Palette.sqlite")
    subprocess.run([fixtures, "--palette-store", store, "--groups", str(args.groups)], check=True, stdout=subprocess.DEVNULL)
    with_model, without = [], []
    for _ in range(args.rounds):
        with_model.append(timed([archivist, "scan", store]))
        without.append(timed([archivist, "scan", store, "--no-model"]))
    a, b = statistics.median(with_model), statistics.median(without)
    print(f"scan of {args.groups:,} groups ({args.groups * 3:,} rows): with the model median {a:.2f} s, --no-model {b:.2f} s, ratio {a / b:.3f} ({args.rounds} alternated runs)")
finally:
    shutil.rmtree(work, ignore_errors=True)
