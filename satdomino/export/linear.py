"""The model as a 0-1 linear program: CPLEX LP and GNU MathProg (what glpsol reads).

Every constraint kind of the IR becomes linear rows over binaries x1..xn (the model's own
variables, same numbers as in DIMACS); a negated literal is (1 - x). Integer variables get one
binary per value (exactly one true), their views and sums are linear in those.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from ..model import (
    PB,
    AtMostOne,
    Card,
    Clause,
    Constraint,
    Define,
    ExactlyOne,
    IntLinear,
    IntView,
    Model,
)

Row = tuple[list[tuple[int, int]], str, int]  # (terms (coefficient, column), op, right side)


def rows(model: Model) -> tuple[list[str], list[Row]]:
    """The columns (binary variable names; a row's column j is ``cols[j]``) and the rows of
    the 0-1 program. Column j < num_vars is model variable j + 1."""
    cols, values, out = columns(model)
    for c in model.constraints:
        out += constraint_rows(c, values)
    return cols, out


def columns(model: Model) -> tuple[list[str], dict, list[Row]]:
    """The columns, each integer variable's (value, column) pairs, and the rows that make
    each integer variable take one value."""
    cols = [f"x{i}" for i in range(1, model.num_vars + 1)]
    values: dict = {}
    for key, x in model.ints.items():
        values[key] = [(v, len(cols) + i) for i, v in enumerate(x.values)]
        cols += [f"d{j + 1}" for _, j in values[key]]
    return cols, values, [([(1, j) for _, j in pairs], "=", 1) for pairs in values.values()]


def _linear(terms: list[tuple[int, int]], op: str, bound: int) -> Row:
    # w * (not x) = w - w * x: constants move to the right side
    row = [(w, lit - 1) if lit > 0 else (-w, -lit - 1) for w, lit in terms]
    bound -= sum(w for w, lit in terms if lit < 0)
    return row, {"<=": "<=", ">=": ">=", "==": "="}[op], bound


def constraint_rows(c: Constraint, values: dict) -> list[Row]:
    """The rows of one constraint (``values`` as ``columns`` gives them)."""
    match c:
        case Clause(lits):
            return [_linear([(1, x) for x in lits], ">=", 1)]
        case AtMostOne(lits):
            return [_linear([(1, x) for x in lits], "<=", 1)]
        case ExactlyOne(lits):
            return [_linear([(1, x) for x in lits], "==", 1)]
        case Card(lits, op, bound):
            return [_linear([(1, x) for x in lits], op, bound)]
        case PB(terms, op, bound):
            return [_linear(list(terms), op, bound)]
        case Define(var, "or", lits):  # var >= each, var <= their sum
            return [*(_linear([(1, var), (-1, x)], ">=", 0) for x in lits),
                    _linear([(1, var), *((-1, x) for x in lits)], "<=", 0)]
        case Define(var, "and", lits):  # var <= each, var >= sum - (n - 1)
            return [*(_linear([(1, var), (-1, x)], "<=", 0) for x in lits),
                    _linear([(1, var), *((-1, x) for x in lits)], ">=", 1 - len(lits))]
        case IntView(var, x, op, k):
            picked = [j for v, j in values[x.key] if (v == k if op == "==" else v >= k)]
            return [([(1, var - 1), *((-1, j) for j in picked)], "=", 0)]
        case IntLinear(terms, bools, op, bound):
            row, op2, bound2 = _linear(list(bools), op, bound)
            for coef, x in terms:
                row += [(coef * v, j) for v, j in values[x.key] if coef * v]
            return [(row, op2, bound2)]
    raise TypeError(f"no linear form for {type(c).__name__}")


def _terms(row: list[tuple[int, int]], cols: list[str], times: str = " ") -> Iterator[str]:
    """Signed terms: "+ 2 x3" in LP, "+ 2 * x3" in MathProg (``times``)."""
    for i, (w, j) in enumerate(row):
        sign = "-" if w < 0 else ("+" if i else "")
        factor = f"{abs(w)}{times}" if abs(w) != 1 else ""
        yield f"{sign} {factor}{cols[j]}".strip()


def to_lp(model: Model, comments: Sequence[str] = ()) -> str:
    cols, rs = rows(model)
    # a row with no terms (0 >= 1: a board with nothing to place) still names a column
    names = cols or ["x0"]
    lines = [f"\\ {c}" for c in comments]
    lines += ["Minimize", f" obj: 0 {names[0]}", "Subject To"]
    for k, (row, op, bound) in enumerate(rs, start=1):
        terms = list(_terms(row, cols)) or ["0 " + names[0]]
        chunks = [" ".join(terms[i:i + 10]) for i in range(0, len(terms), 10)]
        lines.append(f" c{k}: " + "\n   ".join(chunks) + f" {op} {bound}")
    lines += ["Binary", *(f" {' '.join(names[i:i + 12])}" for i in range(0, len(names), 12)),
              "End"]
    return "\n".join(lines) + "\n"


def to_mathprog(model: Model, comments: Sequence[str] = ()) -> str:
    """A GNU MathProg model that prints "x<i> <value>" for the model's own variables after
    ``solve``, so glpsol's output maps straight back to the puzzle."""
    cols, rs = rows(model)
    lines = [f"/* {c} */" for c in comments]
    lines += [f"var {name} binary;" for name in cols]
    for k, (row, op, bound) in enumerate(rs, start=1):
        terms = " ".join(_terms(row, cols, " * ")) or "0"
        lines.append(f"s.t. c{k}: {terms} {op} {bound};")
    prints = [f'printf "{name} %d\\n", {name};' for name in cols if name.startswith("x")]
    lines += ["solve;", *prints, "end;"]
    return "\n".join(lines) + "\n"


def to_opb(model: Model, comments: Sequence[str] = ()) -> str:
    """OPB for the pseudo-Boolean competition: ``* #variable= N #constraint= M`` first, then
    one linear constraint a line with ``>=`` or ``=`` (a ``<=`` row is negated), cardinality
    and PB constraints kept native. Variables x1..xn are the model's own, extra binaries for
    integer values follow."""
    cols, rs = rows(model)
    lines = []
    for terms, op, bound in rs:
        if op == "<=":
            terms, op, bound = [(-w, n) for w, n in terms], ">=", -bound
        body = " ".join(f"{w:+d} x{j + 1}" for w, j in terms)
        lines.append(f"{body} {op} {bound} ;" if body else f"+0 x1 {op} {bound} ;")
    named = len(cols) or int(any(not terms for terms, _, _ in rs))  # the "+0 x1" of an empty row
    head = [f"* #variable= {named} #constraint= {len(lines)}"]
    head += [f"* {c}" for c in comments]
    return "\n".join(head + lines) + "\n"


def to_smt2(model: Model, status: str = "unknown", source: str = "satdomino") -> str:
    """SMT-LIB 2.6, logic QF_LIA, with the benchmark header the SMT-LIB submission rules ask
    for. Every column of the 0-1 program is a Bool; each row is a linear inequality over
    (ite b 1 0) terms; ``status`` is sat, unsat or unknown."""
    cols, rs = rows(model)
    src = source.replace("|", "/").replace("\\", "/")  # neither may appear in |...|
    out = ["(set-info :smt-lib-version 2.6)", "(set-logic QF_LIA)",
           f"(set-info :source |{src}|)",
           '(set-info :license "https://creativecommons.org/licenses/by/4.0/")',
           '(set-info :category "crafted")', f"(set-info :status {status})"]
    out += [f"(declare-fun {name} () Bool)" for name in cols]
    for terms, op, bound in rs:
        # SMT-LIB has no negative literals: -3 is (- 3)
        parts = [f"(ite {cols[j]} 1 0)" if w == 1 else
                 f"(* {w if w > 0 else f'(- {-w})'} (ite {cols[j]} 1 0))" for w, j in terms]
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
