"""One backend for small formulas, another for large ones: ``by-size:VARS:SMALL|LARGE``.

A formula with fewer than VARS variables (as ``size`` counts them: its CNF's, else its
Model's) goes to SMALL, any other to LARGE; each is any backend name (a portfolio, a preset).
What pays on a large puzzle can cost a small one more than it is worth: in ``large-sat`` a
local search started at once wins the large boards sooner, but slows the small ones MiniSat
wins alone (README, "Large planted Dominosa boards").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..clock import NEVER, Deadline
from ..errors import UsageError
from ..process.run import Run
from .base import Backend, Forms, Formula, Group, Result, Session, form_for, size

PREFIX = "by-size:"


def parse(spec: str) -> tuple[int, str, str]:
    """``"VARS:SMALL|LARGE"`` -> (VARS, SMALL, LARGE). The first ``|`` splits the two names
    (a portfolio's names use ``+``, ``@`` and ``:``, never ``|``)."""
    limit, colon, rest = spec.partition(":")
    small, bar, large = rest.partition("|")
    if not colon or not re.fullmatch(r"\s*\d+\s*", limit) or not bar \
            or not small.strip() or not large.strip():
        raise UsageError(f"write by-size:VARS:SMALL|LARGE (VARS a whole number of variables), "
                         f"not by-size:{spec}")
    return int(limit), small.strip(), large.strip()


class BySizeBackend(Group):
    def __init__(self, limit: int, small: Backend, large: Backend) -> None:
        self.limit, self.small, self.large = limit, small, large
        super().__init__([small, large], name=f"{PREFIX}{limit}:{small.name}|{large.name}",
                         summary=f"{small.name} below {limit} variables, else {large.name}")

    def pick(self, formula: Formula) -> Backend:
        counted = formula.cnf if isinstance(formula, Forms) else formula  # lowered to count it
        return self.small if size(counted)[0] < self.limit else self.large

    def solve(self, formula: Formula, assumptions: Sequence[int] = (),
              deadline: Deadline = NEVER, phases: Sequence[int] = ()) -> Result:
        engine = self.pick(formula)
        return engine.solve(form_for(formula, engine), assumptions, deadline, phases)

    def session(self, formula: Formula) -> Session:
        engine = self.pick(formula)
        return engine.session(form_for(formula, engine))

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        engine = self.pick(formula)
        return engine.start(form_for(formula, engine), assumptions, phases)
