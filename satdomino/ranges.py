"""The ranges of the numbers a user gives (time limits, count limits, tolerances, how many),
each in one place: the command line parses its options with ``Range.parse`` (as argparse
types, so a bad value is refused before any file is read) and the library's functions check
their arguments with ``Range.check``, in the same words.

    >>> TIMEOUT.check(float("inf"))
    Traceback (most recent call last):
    ...
    satdomino.errors.UsageError: timeout must be a number of seconds above 0 and at most \
1000000, not inf
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from .clock import NEVER, Deadline
from .errors import UsageError

MAX_TIMEOUT = 1e6  # seconds; larger values overflow the waits of the process layer


@dataclass(frozen=True)
class Range:
    """A number from ``lo`` to ``hi`` (``hi`` None: no upper bound), each end included unless
    ``*_open``; ``whole`` for whole numbers; ``optional``: None is allowed (and means none)."""

    name: str  # the library's word; the option is --NAME
    lo: float
    hi: float | None
    lo_open: bool = False
    hi_open: bool = False
    whole: bool = False
    unit: str = ""
    optional: bool = False

    def describe(self) -> str:
        """What a value must be: "a number of seconds above 0 and at most 1000000"."""
        what = "a whole number" if self.whole else "a number"
        return f"{what}{f' of {self.unit}' if self.unit else ''} {self.bounds()}"

    def bounds(self) -> str:
        """"above 0 and at most 1000000", "from 1 to 10000", "at least 1"."""
        low = f"{'above' if self.lo_open else 'at least'} {_shown(self.lo)}"
        if self.hi is None:
            return low
        if not self.lo_open and not self.hi_open:
            return f"from {_shown(self.lo)} to {_shown(self.hi)}"
        return f"{low} and {'below' if self.hi_open else 'at most'} {_shown(self.hi)}"

    def message(self, value: Any, name: str | None = None) -> str:
        return f"{name or self.name} must be {self.describe()}, not {value!r}"

    def holds(self, value: Any) -> bool:
        if value != value:  # nan (math.isnan would overflow on a huge int)
            return False
        above = value > self.lo if self.lo_open else value >= self.lo
        below = self.hi is None or (value < self.hi if self.hi_open else value <= self.hi)
        return above and below

    def check(self, value: Any, name: str | None = None) -> Any:
        """``value`` when it is in range; a TypeError for what is not a number (None too,
        unless ``optional``), a UsageError for a number out of range."""
        if value is None and self.optional:
            return None
        if isinstance(value, bool) or not isinstance(value, Integral if self.whole else Real):
            raise TypeError(self.message(value, name))
        if not self.holds(value):
            raise UsageError(self.message(value, name))
        return value

    def parse(self, text: str) -> Any:
        """The value of ``--NAME TEXT`` (an argparse ``type``): a UsageError in the same
        words as ``check``'s when it is not a number in range."""
        flag = "--" + self.name.replace("_", "-")
        try:
            value = int(text) if self.whole else float(text)
        except ValueError:
            raise UsageError(self.message(text, flag)) from None
        return self.check(value, flag)


def time_limit(timeout: float | None, deadline: Deadline = NEVER) -> Deadline:
    """The limit of a call given ``timeout`` seconds (in TIMEOUT's range; None: none) and a
    ``deadline`` shared with other work: whichever comes first."""
    TIMEOUT.check(timeout)
    if not isinstance(deadline, Deadline):
        raise TypeError(f"deadline must be a Deadline (Deadline.after(seconds)), not "
                        f"{deadline!r}")
    return deadline.sooner(timeout)


def _shown(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


# None is no limit (inf is refused: a wait that long overflows)
TIMEOUT = Range("timeout", 0, MAX_TIMEOUT, lo_open=True, unit="seconds", optional=True)
LIMIT = Range("limit", 1, None, whole=True, optional=True)
# ApproxMC's tolerance: below 0.01 a cell holds more than 100,000 solutions
EPSILON = Range("epsilon", 0.01, 1e6)
DELTA = Range("delta", 1e-9, 1, hi_open=True)  # 1e-9: 536 rounds of estimates
NUMBER = Range("number", 1, 10_000, whole=True)  # generate --number
JOBS = Range("jobs", 1, 1024, whole=True)  # compare: runs at once here, each a process
SEEDS = Range("seeds", 1, 10_000, whole=True)  # compare: runs per configuration and puzzle
MEMORY = Range("memory", 16, 2**30, whole=True, unit="MB", optional=True)
