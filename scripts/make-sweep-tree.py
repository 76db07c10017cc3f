#!/usr/bin/env python3
"""Builds the trees scripts/sweep-benchmark sweeps: an extraction-like folder of FILES files.

    make-sweep-tree.py OUT --files 20000 [--corpus ../shared/corpus --copies 8] [--seed 15]

With --corpus, the corpus (every file of INDEX.tsv, and its Core Data stores with their -wal
and -shm) is copied --copies times, and noise fills the tree up to --files; without it, every
file is noise. Noise is what an extraction is mostly made of: random bytes (caches, images,
media), text (logs, JavaScript, HTML, JSON, CSS), a few hundred bytes to 256 KiB, in folders of
up to 100 files, the same for a given seed. The corpus's files are only read.
"""

import argparse
import csv
import os
import random
import shutil

WORDS = ("the quick brown fox jumps over the lazy dog lorem ipsum dolor sit amet consectetur "
         "adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua").split()


def noise(rng, index):
    size = int(min(262144, max(200, rng.lognormvariate(8.6, 1.3))))
    kind = index % 6
    if kind in (0, 1, 2):
        return "bin", rng.randbytes(size)
    lines = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))
        lines.append(line)
        total += len(line) + 1
    text = "\n".join(lines)
    if kind == 3:
        return "log", text.encode()
    if kind == 4:
        return "js", ("(function () {\n  // " + text.replace("\n", "\n  // ") + "\n})();\n").encode()
    return "html", ("<!DOCTYPE html>\n<html><body><p>" + text.replace("\n", "</p><p>") + "</p></body></html>\n").encode()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--files", type=int, default=20000)
    parser.add_argument("--corpus")
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)
    written = 0
    if args.corpus:
        with open(os.path.join(args.corpus, "INDEX.tsv")) as index:
            paths = [row["path"] for row in csv.DictReader(index, delimiter="\t")]
        stores = [os.path.join("stores", name) for name in sorted(os.listdir(os.path.join(args.corpus, "stores")))
                  if name.endswith((".sqlite", ".sqlite-wal", ".sqlite-shm"))]
        for copy in range(args.copies):
            for path in paths + stores:
                target = os.path.join(args.out, f"private/var/mobile/copy{copy}", path)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(os.path.join(args.corpus, path), "rb") as source, open(target, "wb") as destination:
                    destination.write(source.read())
                written += 1
    index = 0
    while written < args.files:
        folder = os.path.join(args.out, f"private/var/containers/noise{index // 100:04d}")
        os.makedirs(folder, exist_ok=True)
        extension, data = noise(rng, index)
        with open(os.path.join(folder, f"file{index:06d}.{extension}"), "wb") as f:
            f.write(data)
        index += 1
        written += 1
    print(f"{args.out}: {written} files")


if __name__ == "__main__":
    main()
