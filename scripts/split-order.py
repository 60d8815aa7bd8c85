#!/usr/bin/env python3
"""How soon the split route's order of compositions meets each census-known class.

For every deck of the recall tables (results/discover/recall.jsonl and odd/recall.jsonl; the
standard deck has no census and is left out), each known class's cycle is traced with
`ansatz play --trace`, each position written leader first and put in its composition as
src/discover/split.rs forms it (each hand: its free cards by kind, then its last face card and the
number cards that card demands), and the compositions are ordered as the split stage orders them
(by positions) or by another key. Printed per deck and key: the positions played up to the first
composition holding the class met last ("worst").

Usage: scripts/split-order.py [ANSATZ_BINARY]   (default target/release/ansatz; run from the
repository root). A few seconds.
"""
import itertools
import json
import math
import re
import subprocess
import sys

if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help"):
    print(__doc__.strip())
    sys.exit(0)
ANSATZ = sys.argv[1] if len(sys.argv) > 1 else "target/release/ansatz"
KIND = {"-": 0, "J": 1, "Q": 2, "K": 3, "A": 4}


def multi(c):
    r = math.factorial(sum(c))
    for x in c:
        r //= math.factorial(x)
    return r


def compositions(counts):
    """Every composition (positions, free0, free1, end0, end1) in which both hands hold a face."""
    faces = [k for k in range(1, 5) if counts[k] > 0]
    out = []
    for share in itertools.product(*[range(counts[k] + 1) for k in faces]):
        sh = [0] * 5
        for k, s in zip(faces, share):
            sh[k] = s
        other = [counts[k] - sh[k] for k in range(5)]
        for e0 in [k for k in faces if sh[k] > 0]:
            for e1 in [k for k in faces if other[k] > 0]:
                numbers = counts[0] - e0 - e1
                for n0 in range(numbers + 1):
                    f0, f1 = sh[:], other[:]
                    f0[e0] -= 1
                    f1[e1] -= 1
                    f0[0], f1[0] = n0, numbers - n0
                    out.append((multi(f0) * multi(f1), tuple(f0), tuple(f1), e0, e1))
    return out


def composition_of(pos):
    a, b, p = re.match(r"(\S*)/(\S*) \((\d)\)", pos).groups()
    if p == "2":
        a, b = b, a
    res = []
    for h in (a, b):
        ks = [KIND[c] for c in h]
        last = max(j for j, k in enumerate(ks) if k > 0)
        if len(ks) - 1 - last != ks[last]:
            return None
        f = [0] * 5
        for k in ks[:last]:
            f[k] += 1
        res.append((tuple(f), ks[last]))
    return (multi(res[0][0]) * multi(res[1][0]), res[0][0], res[1][0], res[0][1], res[1][1])


def counts_of(deck):
    if deck == "camicia":
        return [28, 4, 4, 4, 0]
    m = re.match(r"(\d+)-(.*)", deck)
    c = [int(m.group(1)), 0, 0, 0, 0]
    for n, k in re.findall(r"(\d)([JQKA])", m.group(2)):
        c[KIND[k]] = int(n)
    return c


def cycle_positions(cycle_id):
    out = subprocess.run([ANSATZ, "play", "--trace", cycle_id], capture_output=True, text=True).stdout
    return [f"{p[2]} {p[3]}" for p in (l.split() for l in out.splitlines())
            if len(p) >= 4 and p[0].isdigit() and p[3].startswith("(")]


def feats(c):
    size, f0, f1, e0, e1 = c
    l0, l1 = sum(f0) + 1 + e0, sum(f1) + 1 + e1
    return size, abs(l0 - l1) + 1, abs(sum(f0[1:]) - sum(f1[1:])) + 1, e0, e1


KEYS = {
    "size (the split stage)": lambda s, imb, fd, e0, e1: s,
    "size * imbalance": lambda s, imb, fd, e0, e1: s * imb,
    "size / imbalance": lambda s, imb, fd, e0, e1: s / imb,
    "size * face difference": lambda s, imb, fd, e0, e1: s * fd,
    "size / face difference": lambda s, imb, fd, e0, e1: s / fd,
    "size * (e0 + e1)": lambda s, imb, fd, e0, e1: s * (e0 + e1),
    "size / (e0 + e1)": lambda s, imb, fd, e0, e1: s / (e0 + e1),
    "size / (e0 * e1)": lambda s, imb, fd, e0, e1: s / (e0 * e1),
    "size * (e0 * e1)": lambda s, imb, fd, e0, e1: s * (e0 * e1),
}


def main():
    decks = {}
    for f in ["results/discover/recall.jsonl", "results/discover/odd/recall.jsonl"]:
        for line in open(f):
            v = json.loads(line)
            if "known" in v and v["known"]["deck"] != "standard":
                decks[v["known"]["deck"]] = v["known"]
    traced = {d: [cycle_positions(c["cycle_id"]) for c in k["classes"]] for d, k in decks.items()}
    for name, key in KEYS.items():
        print(f"## {name}")
        for deck in sorted(decks, key=lambda d: decks[d]["cards"]):
            allc = sorted(compositions(counts_of(deck)), key=lambda c: (key(*feats(c)), c))
            cum = list(itertools.accumulate([c[0] for c in allc], initial=0))
            rank = {c: i for i, c in enumerate(allc)}
            worst = max(cum[min(rank[c] for c in map(composition_of, ps) if c in rank) + 1]
                        for ps in traced[deck])
            print(f"{deck:14s} {decks[deck]['cards']:3d} cards {len(traced[deck]):4d} classes "
                  f"worst after {worst:9.3g} of {cum[-1]:9.3g} positions ({worst / cum[-1]:.2%})")


if __name__ == "__main__":
    main()
