"""The measured tables in encodings/*.md (not a test): ``python -m benchmarks.encoding_tables
[--write] [--repeats R]``.

For each encoding kind, every registered encoding is lowered on a few generated puzzles whose
models use that kind of constraint; the table gives variables, clauses and the median solve time
of cadical195 over the repeats. With ``--write`` the tables replace the text between the
``<!-- measured -->`` markers of each document, so the documents say what the code does today.
Sizes are deterministic (a test compares them with the documents); times are this machine's.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from satdomino import generators as gen
from satdomino.backends import get_backend
from satdomino.clock import Deadline
from satdomino.encode import REGISTRY, Encodings, lower
from satdomino.model import Model
from satdomino.puzzles import family

DOCS = Path(__file__).resolve().parents[1] / "encodings"
BEGIN, END = "<!-- measured: begin -->", "<!-- measured: end -->"
BACKEND = "cadical195"
TIME_LIMIT = 60.0


@dataclass(frozen=True)
class Case:
    kind: str
    params: dict
    seed: int
    model: str

    @property
    def label(self) -> str:
        size = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.kind} {size} s{self.seed} `{self.model}`"


# puzzles whose models exercise each kind of constraint (generated, so nothing is shipped)
CASES: dict[str, list[Case]] = {
    "amo": [Case("dominosa", {"n": 40}, 1, "placement"),
            Case("pips", {"dominoes": 12, "max_pip": 6}, 1, "placement"),
            Case("doodlefit", {"cells": 60, "blocks": 12}, 1, "placement")],
    "card": [Case("dominosa", {"n": 14}, 1, "counted"),
             Case("pips", {"dominoes": 20, "max_pip": 6}, 1, "link-value")],
    "pb": [Case("dominofit", {"width": 14, "height": 14}, 1, "dot-half"),
           Case("dominosa", {"n": 14}, 1, "counted"),
           Case("pips", {"dominoes": 12, "max_pip": 6}, 1, "placement")],
    "int": [Case("pips", {"dominoes": 20, "max_pip": 6}, 1, "link-value"),
            Case("pips", {"dominoes": 30, "max_pip": 6}, 2, "link-value")],
}
# encodings whose CNF needs a backend with native constraints: not in a CNF table
NOT_CNF = {"native"}


def unit_propagate(clauses: list[list[int]], atmosts: list[tuple[list[int], int]],
                   assumed: list[int]) -> set[int] | None:
    """The literals unit propagation derives from ``assumed`` (None on a conflict), native
    at-most-k constraints included. Plain and slow: for the small formulas here."""
    true = set(assumed)
    if any(-x in true for x in true):
        return None
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(x in true for x in clause):
                continue
            open_ = [x for x in clause if -x not in true]
            if not open_:
                return None
            if len(open_) == 1:
                true.add(open_[0])
                changed = True
        for lits, k in atmosts:
            on = sum(x in true for x in lits)
            if on > k:
                return None
            if on == k:
                new = {-x for x in lits if x not in true and -x not in true}
                changed |= bool(new)
                true |= new
    return true


def up_consistent(model: Model, encodings: Encodings) -> bool:
    """Does unit propagation on the clauses find every consequence on the model's own
    variables, for every partial assignment of them (and a conflict when none extends)?
    Checked by enumerating all 3^n partial assignments against the constraint's meaning."""
    n = model.num_vars
    allowed = [bits for bits in itertools.product([False, True], repeat=n)
               if model.satisfied_by((False, *bits))]  # value[0] unused: ids from 1
    cnf = lower(model, encodings)
    for partial in itertools.product([None, False, True], repeat=n):
        fixed = [i + 1 if b else -(i + 1) for i, b in enumerate(partial) if b is not None]
        found = unit_propagate(cnf.clauses, cnf.atmosts, fixed)
        fits = [bits for bits in allowed
                if all(b is None or b == v for b, v in zip(partial, bits, strict=True))]
        if not fits:
            if found is not None:
                return False
            continue
        implied = {i + 1 if fits[0][i] else -(i + 1) for i in range(n)
                   if len({bits[i] for bits in fits}) == 1}
        if found is None or not implied <= found:
            return False
    return True


def constraint_models(kind: str, op: str | None = None) -> list[Model]:
    """Small single-constraint models (every bound of card, random weights for pb; only the
    comparison ``op`` when given), on which UP-consistency is decided exhaustively."""
    out = []
    ops = [op] if op else ["<=", ">=", "=="]
    if kind == "amo":
        for n, exactly in itertools.product(range(1, 7), (False, True)):
            m = Model("amo")
            xs = [m.var(i) for i in range(n)]
            (m.exactly_one if exactly else m.at_most_one)(xs)
            out.append(m)
    elif kind == "card":
        for k, o in itertools.product(range(6), ops):
            m = Model("card")
            m.card([m.var(i) for i in range(5)], o, k)
            out.append(m)
    elif kind == "pb":
        rng = random.Random(1)
        for _ in range(20):
            m = Model("pb")
            xs = [m.var(i) for i in range(5)]
            terms = [(rng.randint(1, 6), x) for x in xs]
            m.pb(terms, rng.choice(ops), rng.randint(1, sum(w for w, _ in terms) - 1))
            out.append(m)
    return out


def up_columns(kind: str) -> dict[str, list[str]]:
    """Per encoding, "yes" / "no" for UP-consistency: one column for amo / exactly-one, one for
    inequalities and one for equalities otherwise (an equality of a PB constraint has no
    polynomial UP-consistent encoding unless P = NP, so "no" is expected there)."""
    if kind == "amo":
        groups = [constraint_models(kind)]
    else:
        groups = [constraint_models(kind, "<=") + constraint_models(kind, ">="),
                  constraint_models(kind, "==")]
    return {name: ["yes" if all(up_consistent(m, Encodings(**{kind: name})) for m in group)
                   else "no" for group in groups] for name in REGISTRY[kind]}


def case_cnf(case: Case, kind: str, name: str):
    """The CNF of the case's planted puzzle with encoding ``name`` for ``kind``."""
    puzzle = gen.planted(family(case.kind), case.params, case.seed)
    return lower(family(case.kind).model(case.model)(puzzle), Encodings(**{kind: name}))


def sizes(case: Case, kind: str, name: str) -> tuple[int, int]:
    cnf = case_cnf(case, kind, name)
    return cnf.num_vars, len(cnf.clauses)


def measure(kind: str, repeats: int) -> list[list[str]]:
    """Rows: encoding, then "variables / clauses / seconds" per case."""
    backend = get_backend(BACKEND)
    rows = []
    for name in REGISTRY[kind]:
        if name in NOT_CNF:
            continue
        row = [f"`{name}`"]
        for case in CASES[kind]:
            cnf = case_cnf(case, kind, name)
            times, status = [], ""
            for _ in range(repeats):
                r = backend.solve(cnf, deadline=Deadline.after(TIME_LIMIT))
                status = r.status
                times.append(r.seconds)
            t = f"{statistics.median(times):.3f}" if status == "sat" else f">{TIME_LIMIT:g}"
            row.append(f"{cnf.num_vars} / {len(cnf.clauses)} / {t}")
        rows.append(row)
    return rows


def table(kind: str, repeats: int) -> str:
    up = up_columns(kind) if kind != "int" else {}
    up_head = {"amo": ["UP-consistent"], "card": ["UP-consistent <=, >=", "UP-consistent ="],
               "pb": ["UP-consistent <=, >=", "UP-consistent ="]}.get(kind, [])
    head = ["encoding", *up_head, *(c.label for c in CASES[kind])]
    lines = [f"Measured by `python -m benchmarks.encoding_tables --write`. Cells: "
             f"variables / clauses / median seconds of {BACKEND} over {repeats} runs (solve "
             "only; planted puzzles, so all satisfiable); the other kinds at their defaults."]
    if up:
        lines.append("UP-consistent: unit propagation finds every consequence on the "
                     "constraint's own variables, checked over all 3^n partial assignments of "
                     "small constraints (`constraint_models` in the script: amo and exactly-one "
                     "n <= 6; cardinality n = 5, every k; 20 random PB constraints, n = 5, "
                     "weights 1-6).")
    lines += ["", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in measure(kind, repeats):
        name = row[0].strip("`")
        lines.append("| " + " | ".join([row[0], *up.get(name, []), *row[1:]]) + " |")
    return "\n".join(lines)


def documented_sizes(kind: str) -> dict[str, list[tuple[int, int]]]:
    """The (variables, clauses) the document's measured table states, per encoding."""
    text = (DOCS / f"{kind}.md").read_text()
    block = text[text.index(BEGIN):text.index(END)]
    found = {}
    for name, cells in re.findall(r"^\| `([\w-]+)` \|(.*)\|$", block, flags=re.M):
        found[name] = [tuple(map(int, c.split("/")[:2])) for c in cells.split("|")
                       if c.count("/") == 2]
    return found


def write(kind: str, body: str) -> None:
    path = DOCS / f"{kind}.md"
    text = path.read_text()
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + f"{BEGIN}\n{body}\n" + text[text.index(END):]
    else:
        text = text.rstrip("\n") + f"\n\n## Measured on our puzzles\n\n{BEGIN}\n{body}\n{END}\n"
    path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="update encodings/*.md")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--kind", choices=list(CASES), action="append")
    args = ap.parse_args(argv)
    for kind in args.kind or list(CASES):
        body = table(kind, args.repeats)
        print(f"## {kind}\n{body}\n")
        if args.write:
            write(kind, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
