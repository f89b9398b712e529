"""Outside solvers' answers to the instances ``export`` writes, in each format's usual form:
the status word and the value of each column (x1..xn, the model's own variables; d1.. the
binaries of integer values).

- OPB: the pseudo-Boolean competition's ``s SATISFIABLE`` and ``v x1 -x2 ...`` (minisat+,
  RoundingSat);
- SMT-LIB 2: ``sat`` and a model, ``(define-fun x1 () Bool true)`` (``z3 -model``, cvc5's
  ``--dump-models``), or ``get-value``'s ``((x1 true) ...)``;
- LP and MathProg: a HiGHS solution file (``# Columns N`` then ``x1 1`` lines), glpsol's
  printable report (``-o``: ``Status: INTEGER OPTIMAL`` and the column table), or, for
  MathProg, glpsol's output with the ``x<i> <value>`` lines the model prints.
"""

from __future__ import annotations

import re

from ..errors import SatDominoError

SAT, UNSAT, UNKNOWN = "SATISFIABLE", "UNSATISFIABLE", "UNKNOWN"
Answer = tuple[str, dict[str, bool]]  # (status, column name -> value)

_DEFINE = re.compile(r"\(define-fun\s+([^\s()]+)\s+\(\s*\)\s+Bool\s+(true|false)\s*\)")
_PAIR = re.compile(r"\(\s*([^\s()]+)\s+(true|false)\s*\)")
_GLPK_STATUS = {"INTEGER OPTIMAL": SAT, "OPTIMAL": SAT, "INTEGER EMPTY": UNSAT,
                "INFEASIBLE (FINAL)": UNSAT, "INTEGER UNDEFINED": UNKNOWN, "UNDEFINED": UNKNOWN}
_HIGHS_STATUS = {"Optimal": SAT, "Infeasible": UNSAT}


def read_answer(fmt: str, text: str, who: str) -> Answer:
    """The status and column values of an answer to an instance of format ``fmt``
    (opb, smt2, lp, mathprog); one-line SatDominoError when it is none of the known forms or
    contradicts itself."""
    readers = {"opb": _opb, "smt2": _smt2, "lp": _linear, "mathprog": _linear}
    status, values = readers[fmt](text, who)
    if status == SAT and not values:
        raise SatDominoError(f"{who}: the solver says satisfiable but gives no values")
    return status, values


def _set(values: dict[str, bool], name: str, value: bool, who: str) -> None:
    if values.setdefault(name, value) != value:
        raise SatDominoError(f"{who} gave {name} both values")


def s_and_v_lines(text: str, who: str, error: type[SatDominoError] = SatDominoError
                  ) -> tuple[str | None, list[str]]:
    """The ``s`` status word (None: none) and the text of each ``v`` line of a competition
    answer (SAT's and pseudo-Boolean's); two ``s`` lines raise ``error``."""
    status, lines = None, []
    for line in text.splitlines():
        if line.startswith("s "):
            if status is not None:
                raise error(f"{who} printed two 's' lines")
            status = line[2:].strip()
        elif line.startswith("v "):
            lines.append(line[2:])
    return status, lines


def _opb(text: str, who: str) -> Answer:
    status, lines = s_and_v_lines(text, who)
    values: dict[str, bool] = {}
    for line in lines:
        for token in line.split():
            name = token.lstrip("-~")
            if not re.fullmatch(r"[xd][0-9]+", name) or len(token) - len(name) > 1:
                raise SatDominoError(f"{who}: a 'v' line holds {token[:20]!r}, not a "
                                     "variable such as x3 or -x3")
            _set(values, name, name == token, who)
    words = {"SATISFIABLE": SAT, "OPTIMUM FOUND": SAT, "UNSATISFIABLE": UNSAT, "UNKNOWN": UNKNOWN}
    if status not in words:
        raise SatDominoError(f"{who}: no 's SATISFIABLE' (or OPTIMUM FOUND, UNSATISFIABLE, "
                             "UNKNOWN) line of a pseudo-Boolean solver")
    return words[status], values


def _smt2(text: str, who: str) -> Answer:
    words = [w for w in (line.strip() for line in text.splitlines()) if w in ("sat", "unsat",
                                                                            "unknown")]
    if not words:
        raise SatDominoError(f"{who}: no 'sat', 'unsat' or 'unknown' line of an SMT solver")
    if len(set(words)) > 1:
        raise SatDominoError(f"{who} printed both {words[0]!r} and "
                             f"{next(w for w in words if w != words[0])!r}")
    values: dict[str, bool] = {}
    found = _DEFINE.findall(text) or _PAIR.findall(text)
    for name, value in found:
        _set(values, name.strip("|"), value == "true", who)
    return {"sat": SAT, "unsat": UNSAT, "unknown": UNKNOWN}[words[0]], values


def _linear(text: str, who: str) -> Answer:
    if "# Columns" in text or text.startswith("Model status"):
        return _highs(text, who)
    if re.search(r"^Status:", text, re.M):
        return _glpk_report(text, who)
    printed = re.findall(r"^(x[0-9]+) (-?[0-9.e+-]+)$", text, re.M)  # the MathProg model's
    if printed:
        values: dict[str, bool] = {}
        for name, value in printed:
            _set(values, name, _binary(value, name, who), who)
        empty = re.search(r"NO (INTEGER|PRIMAL) FEASIBLE SOLUTION|PROBLEM HAS NO", text)
        return (UNSAT, {}) if empty else (SAT, values)
    if re.search(r"NO (INTEGER|PRIMAL) FEASIBLE SOLUTION|PROBLEM HAS NO", text):
        return UNSAT, {}
    raise SatDominoError(f"{who}: not a HiGHS solution file, a glpsol report (-o) nor glpsol's "
                         "output of the MathProg model")


def _binary(value: str, name: str, who: str) -> bool:
    """A 0-1 column's value, as LP solvers print it (1, 0, 1e+00, 0.9999999999)."""
    try:
        number = float(value)
    except ValueError:
        raise SatDominoError(f"{who}: {name} has the value {value[:20]!r}") from None
    if abs(number - round(number)) > 1e-6 or round(number) not in (0, 1):
        raise SatDominoError(f"{who}: {name} = {value[:20]} is not 0 or 1")
    return round(number) == 1


def _highs(text: str, who: str) -> Answer:
    lines = text.splitlines()
    status = lines[lines.index("Model status") + 1].strip() if "Model status" in lines else ""
    values: dict[str, bool] = {}
    for i, line in enumerate(lines):
        if line.startswith("# Columns"):
            count = int(line.split()[2]) if len(line.split()) > 2 and \
                line.split()[2].isdigit() else 0
            for row in lines[i + 1:i + 1 + count]:
                parts = row.split()
                if len(parts) < 2:
                    raise SatDominoError(f"{who}: a column line {row[:40]!r} without a value")
                _set(values, parts[0], _binary(parts[1], parts[0], who), who)
            break
    return _HIGHS_STATUS.get(status, UNKNOWN), values if status == "Optimal" else {}


def _glpk_report(text: str, who: str) -> Answer:
    found = re.search(r"^Status:\s+(.+?)\s*$", text, re.M)
    status = _GLPK_STATUS.get(found.group(1) if found else "", UNKNOWN)
    values: dict[str, bool] = {}
    table = text.split("Column name", 1)[1] if "Column name" in text else ""
    for name, value in re.findall(r"^\s*[0-9]+ (\S+)\s+\*?\s+(-?[0-9.e+-]+)", table, re.M):
        _set(values, name, _binary(value, name, who), who)
    return status, values if status == SAT else {}
