"""``satdomino encodings``: what ``auto`` picks, every encoding and every backend here."""

from __future__ import annotations

import argparse
import json

from ..auto import AUTO, describe
from ..backends import PRESETS, available_backends
from ..backends.dlx import SUMMARY as DLX_SUMMARY
from ..encode import KINDS, REGISTRY, Encodings
from ..puzzles import FAMILIES


def add_parser(sub) -> None:
    e = sub.add_parser("encodings", help="what auto picks, and every encoding and backend here")
    e.add_argument("--json", action="store_true",
                   help="the encodings per kind, the backends and auto's rules as one object")


def run(args: argparse.Namespace) -> int:
    backends = [AUTO, *available_backends()]
    rules = describe(FAMILIES.values())
    if args.json:
        print(json.dumps({**{kind: list(REGISTRY[kind]) for kind in KINDS},
                          "backends": backends, "auto": rules}))
        return 0
    print("auto (the default --backend): per family and size, what it picks here")
    for r in rules:
        changed = " ".join(f"{k}={v}" for k, v in r["encodings"].items()
                           if v != getattr(Encodings(), k))
        print(f"  {r['family']:<10} {r['sizes']:<15} model {r['model']}, "
              f"{changed or 'default encodings'}, backend {r['backend']} "
              f"(counting: {r['count_backend']})\n{'':13}why: {r['why']}")
    for kind in KINDS:
        print(f"{kind} (--{kind}):")
        for enc in REGISTRY[kind].values():
            print(f"  {enc.name:<15} {enc.summary}")
    print("backends (--backend):")
    said = {**{name: summary for name, (_, summary) in PRESETS.items()},
            AUTO: "the pick above (default)", "sls": "our local search (answers sat, or runs "
            "until stopped: race it with a complete solver)",
            "dlx": DLX_SUMMARY}
    for name in backends:
        print(f"  {name:<15} {said[name]}" if name in said else f"  {name}")
    print("  external:CMD    any DIMACS solver printing 's SATISFIABLE' / 'v ... 0'")
    print("  portfolio:A+B   A and B race in parallel; the first answer wins "
          "(NAME@SECONDS: NAME starts that late, or once another gives up;\n"
          "                  NAME@START..YIELD: at YIELD it pauses for a waiting member, "
          "and goes on on the next free core)")
    print("  by-size:VARS:SMALL|LARGE  SMALL for formulas with fewer than VARS variables, "
          "else LARGE")
    return 0
