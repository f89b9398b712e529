"""The model as a 0-1 linear program: CPLEX LP and GNU MathProg (what glpsol reads).

Every constraint kind of the IR becomes linear rows over binaries x1..xn (the model's own
variables, same numbers as in DIMACS); a negated literal is (1 - x). Integer variables get one
binary per value (exactly one true), their views and sums are linear in those.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator

from ..model import PB, AtMostOne, Card, Clause, Define, ExactlyOne, IntLinear, IntView, Model

Row = tuple[list[tuple[int, str]], str, int]  # (terms (coefficient, column), op, right side)


def rows(model: Model) -> tuple[list[str], list[Row]]:
    """The columns (binary variable names) and the rows of the 0-1 program."""
    cols = [f"x{i}" for i in range(1, model.num_vars + 1)]
    out: list[Row] = []
    values: dict = {}
    for key, x in model.ints.items():
        names = []
        for v in x.values:
            names.append((v, f"d{len(cols) + 1}"))
            cols.append(names[-1][1])
        values[key] = names
        out.append(([(1, n) for _, n in names], "=", 1))

    def linear(terms: list[tuple[int, int]], op: str, bound: int) -> Row:
        # w * (not x) = w - w * x: constants move to the right side
        row = []
        for w, lit in terms:
            if lit > 0:
                row.append((w, f"x{lit}"))
            else:
                row.append((-w, f"x{-lit}"))
                bound -= w
        return row, {"<=": "<=", ">=": ">=", "==": "="}[op], bound

    for c in model.constraints:
        match c:
            case Clause(lits):
                out.append(linear([(1, x) for x in lits], ">=", 1))
            case AtMostOne(lits):
                out.append(linear([(1, x) for x in lits], "<=", 1))
            case ExactlyOne(lits):
                out.append(linear([(1, x) for x in lits], "==", 1))
            case Card(lits, op, bound):
                out.append(linear([(1, x) for x in lits], op, bound))
            case PB(terms, op, bound):
                out.append(linear(list(terms), op, bound))
            case Define(var, "or", lits):
                for x in lits:  # var >= each, var <= their sum
                    out.append(linear([(1, var), (-1, x)], ">=", 0))
                out.append(linear([(1, var), *((-1, x) for x in lits)], "<=", 0))
            case Define(var, "and", lits):
                for x in lits:  # var <= each, var >= sum - (n - 1)
                    out.append(linear([(1, var), (-1, x)], "<=", 0))
                out.append(linear([(1, var), *((-1, x) for x in lits)], ">=", 1 - len(lits)))
            case IntView(var, x, op, k):
                picked = [n for v, n in values[x.key] if (v == k if op == "==" else v >= k)]
                out.append(([(1, f"x{var}"), *((-1, n) for n in picked)], "=", 0))
            case IntLinear(terms, bools, op, bound):
                row, op2, bound2 = linear(list(bools), op, bound)
                for coef, x in terms:
                    row += [(coef * v, n) for v, n in values[x.key] if coef * v]
                out.append((row, op2, bound2))
    return cols, out


def _terms(row: list[tuple[int, str]], times: str = " ") -> Iterator[str]:
    """Signed terms: "+ 2 x3" in LP, "+ 2 * x3" in MathProg (``times``)."""
    for i, (w, name) in enumerate(row):
        sign = "-" if w < 0 else ("+" if i else "")
        factor = f"{abs(w)}{times}" if abs(w) != 1 else ""
        yield f"{sign} {factor}{name}".strip()


def to_lp(model: Model, comments: list[str] = ()) -> str:
    cols, rs = rows(model)
    lines = [f"\\ {c}" for c in comments]
    lines += ["Minimize", f" obj: 0 {cols[0]}" if cols else " obj:", "Subject To"]
    for k, (row, op, bound) in enumerate(rs, start=1):
        terms = list(_terms(row)) or ["0 " + cols[0]]
        chunks = [" ".join(terms[i:i + 10]) for i in range(0, len(terms), 10)]
        lines.append(f" c{k}: " + "\n   ".join(chunks) + f" {op} {bound}")
    lines += ["Binary"] + [f" {' '.join(cols[i:i + 12])}" for i in range(0, len(cols), 12)]
    lines.append("End")
    return "\n".join(lines) + "\n"


def to_mathprog(model: Model, comments: list[str] = (), show: bool = True) -> str:
    """A GNU MathProg model; with ``show``, it prints "x<i> <value>" for the model's own
    variables after ``solve``, so glpsol's output maps straight back to the puzzle."""
    cols, rs = rows(model)
    lines = [f"/* {c} */" for c in comments]
    lines += [f"var {name} binary;" for name in cols]
    for k, (row, op, bound) in enumerate(rs, start=1):
        terms = " ".join(_terms(row, " * ")) or "0"
        lines.append(f"s.t. c{k}: {terms} {op} {bound};")
    lines.append("solve;")
    if show:
        lines += [f'printf "{name} %d\\n", {name};' for name in cols if name.startswith("x")]
    lines.append("end;")
    return "\n".join(lines) + "\n"


def to_opb(model: Model, comments: list[str] = ()) -> str:
    """OPB for the pseudo-Boolean competition: ``* #variable= N #constraint= M`` first, then
    one linear constraint a line with ``>=`` or ``=`` (a ``<=`` row is negated), cardinality
    and PB constraints kept native. Variables x1..xn are the model's own, extra binaries for
    integer values follow."""
    cols, rs = rows(model)
    number = {name: f"x{i}" for i, name in enumerate(cols, start=1)}
    lines = []
    for terms, op, bound in rs:
        if op == "<=":
            terms, op, bound = [(-w, n) for w, n in terms], ">=", -bound
        body = " ".join(f"{w:+d} {number[n]}" for w, n in terms)
        lines.append(f"{body} {op} {bound} ;" if body else f"+0 x1 {op} {bound} ;")
    head = [f"* #variable= {len(cols)} #constraint= {len(lines)}"]
    head += [f"* {c}" for c in comments]
    return "\n".join(head + lines) + "\n"


def to_smt2(model: Model, status: str = "unknown", source: str = "satdomino",
            category: str = "crafted") -> str:
    """SMT-LIB 2.6, logic QF_LIA, with the benchmark header the SMT-LIB submission rules ask
    for. Every column of the 0-1 program is a Bool; each row is a linear inequality over
    (ite b 1 0) terms; ``status`` is sat, unsat or unknown."""
    cols, rs = rows(model)
    src = source.replace("|", "/")
    out = ["(set-info :smt-lib-version 2.6)", "(set-logic QF_LIA)",
           f"(set-info :source |{src}|)",
           '(set-info :license "https://creativecommons.org/licenses/by/4.0/")',
           f'(set-info :category "{category}")', f"(set-info :status {status})"]
    out += [f"(declare-fun {name} () Bool)" for name in cols]
    for terms, op, bound in rs:
        parts = [f"(* {w} (ite {n} 1 0))" if w != 1 else f"(ite {n} 1 0)" for w, n in terms]
        lhs = "0" if not parts else parts[0] if len(parts) == 1 else f"(+ {' '.join(parts)})"
        rhs = str(bound) if bound >= 0 else f"(- {-bound})"
        out.append(f"(assert ({op} {lhs} {rhs}))")
    out += ["(check-sat)", "(exit)"]
    return "\n".join(out) + "\n"


def opb_hash(text: str) -> str:
    """The Global Benchmark Database hash of an OPB text (gbdc's ``opbhash``): md5 of each
    constraint as ``w xv `` terms (no plus signs), the operator, a space, the bound and ``;``,
    with comments and layout ignored."""
    h = hashlib.md5()
    for line in text.splitlines():
        if line.lstrip().startswith("*") or not line.strip():
            continue
        for statement in filter(str.strip, line.split(";")):
            tokens = statement.split()
            op = next(i for i, t in enumerate(tokens) if t in (">=", "<=", "="))
            pairs = zip(tokens[:op:2], tokens[1:op:2], strict=True)
            terms = "".join(f"{int(w)} {x} " for w, x in pairs)
            h.update(f"{terms}{tokens[op]} {int(tokens[op + 1])};".encode())
    return h.hexdigest()
