"""``satdomino check-proof``: a DRAT proof that a DIMACS formula is unsatisfiable, checked by
the built-in checker (and drat-trim when it is on PATH)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ..analysis.drat import check_drat_files, drat_trim
from ..clock import Deadline
from ..errors import OutOfTimeError, SatDominoError
from .common import say, timeout_option


def add_parser(sub) -> None:
    k = sub.add_parser("check-proof", help="verify a DRAT proof that a DIMACS file is UNSAT")
    k.add_argument("cnf", metavar="CNF", help="the DIMACS formula (compressed by suffix)")
    k.add_argument("proof", metavar="PROOF", help="text or binary DRAT, possibly compressed")
    timeout_option(k, "seconds for each checker (default 600)", 600.0)
    k.add_argument("--no-drat-trim", action="store_true",
                   help="only the built-in checker, even when drat-trim is on PATH")
    k.add_argument("--json", action="store_true",
                   help='print {"cnf", "proof", "verified", "checks"}')


def run(args: argparse.Namespace) -> int:
    """Verify a DRAT proof with the built-in checker, and with drat-trim when it is here."""
    if not Path(args.proof).is_file():
        raise SatDominoError(f"{args.proof}: " + ("not a file" if Path(args.proof).exists()
                                                  else "no such file"))
    t0 = time.perf_counter()
    try:
        built_in = check_drat_files(args.cnf, args.proof, deadline=Deadline.after(args.timeout))
        checks = {"built-in": {"verified": built_in.ok, "message": built_in.message,
                               "lemmas": built_in.lemmas, "deletions": built_in.deletions,
                               "rat_lemmas": built_in.rat_lemmas,
                               "seconds": round(time.perf_counter() - t0, 3)}}
        outside = None if args.no_drat_trim else drat_trim(args.cnf, args.proof, args.timeout)
    except OutOfTimeError as e:
        say(f"satdomino: {e}; s UNKNOWN")
        return 3
    if outside is not None:
        checks["drat-trim"] = {"verified": outside.ok, "message": outside.message}
    ok = all(c["verified"] for c in checks.values())
    if args.json:
        print(json.dumps({"cnf": args.cnf, "proof": args.proof, "verified": ok,
                          "checks": checks}))
    else:
        for name, c in checks.items():
            print(f"{name}: {c['message'] or ('VERIFIED' if c['verified'] else 'NOT VERIFIED')}")
        if "drat-trim" not in checks and not args.no_drat_trim:
            print("drat-trim: not on PATH, not run")
        print("s VERIFIED" if ok else "s NOT VERIFIED")
    return 0 if ok else 1
