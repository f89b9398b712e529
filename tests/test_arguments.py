"""Arguments out of range or of the wrong type, given to the library or the command line: one
range each (``satdomino.ranges``), one message, a TypeError or a SatDominoError, never a
crash from deep inside (AttributeError, OverflowError, KeyError, an incomplete count of 0, an
input file overwritten)."""

from __future__ import annotations

import contextlib
import doctest
import math
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import satdomino
import satdomino.ranges
from satdomino.cli import main
from satdomino.errors import UsageError
from satdomino.ranges import DELTA, EPSILON, LIMIT, TIMEOUT

from .conftest import EXAMPLES, examples

DOUBLE6 = str(EXAMPLES / "dominosa" / "double6.txt")
[BOARD] = satdomino.parse("2:221200101201")
[OTHER] = satdomino.read(str(EXAMPLES / "pips" / "planted-6-unique.json"))
OTHER_OUT = OTHER.solve()
HOSTILE = [None, 0, -1, 3, 2**70, -(2**70), 0.5, -0.5, math.nan, math.inf, -math.inf, 1e308,
           1e-300, True, "", "x", "5", "auto", b"bytes", [], [1], {}, {"amo": 5}, object(),
           OTHER, OTHER_OUT, satdomino.Deadline()]


def _export(**kw):
    return BOARD.export(kw.pop("path", "out.cnf"), **kw)


# (what is called, the argument given a hostile value)
CALLS = {
    "parse": (lambda **kw: satdomino.parse(**{"text": "2:221200101201", **kw}),
              ["text", "kind"]),
    "read": (lambda **kw: satdomino.read(**{"path": DOUBLE6, **kw}), ["path", "kind", "puzzle"]),
    "solve": (BOARD.solve, ["unique", "backend", "timeout", "model", "encodings", "deadline"]),
    "count": (BOARD.count, ["by", "limit", "timeout", "backend", "model", "encodings", "approx",
                            "epsilon", "delta", "deadline"]),
    "explain": (BOARD.explain, ["timeout", "deadline"]),
    "hint": (BOARD.hint, ["given", "timeout", "deadline"]),
    "export": (_export, ["path", "format", "model", "encodings", "timeout"]),
    "text": (BOARD.text, ["outcome"]),
    "svg": (BOARD.svg, ["outcome"]),
    "draw": (lambda **kw: BOARD.draw(**{"path": "out.svg", **kw}), ["path", "outcome"]),
    "cnf": (BOARD.cnf, ["model", "encodings"]),
    "decode": (lambda **kw: BOARD.decode(**{"assignment": [1], **kw}), ["assignment", "model"]),
}


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(CALLS)), st.data())
def test_the_library_refuses_hostile_arguments_in_one_line(name, data) -> None:
    call, params = CALLS[name]
    param = data.draw(st.sampled_from(params), label="argument")
    value = data.draw(st.sampled_from(HOSTILE), label="value")
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        try:
            call(**{param: value})
        except (satdomino.SatDominoError, TypeError) as e:
            message = str(e)
            assert message and "\n" not in message, repr(message)
            assert type(e) is not TypeError or "must" in message or "takes" in message, \
                message  # ours, not Python's own complaint


def test_a_count_limit_below_one_is_refused_not_an_incomplete_zero() -> None:
    for bad in (-1, 0):
        with pytest.raises(UsageError, match="limit must be a whole number at least 1"):
            BOARD.count(limit=bad)
    assert BOARD.count(limit=1).value == 1


@pytest.mark.parametrize("call", [BOARD.solve, BOARD.count, BOARD.explain, BOARD.hint,
                                  lambda timeout: BOARD.export("x.cnf", timeout=timeout)])
@pytest.mark.parametrize("timeout", [math.inf, math.nan, -1.0, 0.0, 1e7])
def test_every_time_limit_has_the_one_range(call, timeout) -> None:
    with pytest.raises(UsageError) as e:
        call(timeout=timeout)
    assert str(e.value) == TIMEOUT.message(timeout)


def test_the_command_line_says_the_library_s_words(capsys) -> None:
    """The option's range and message are the library's, with the option's name."""
    cases = [(["solve", DOUBLE6, "--timeout", "inf"], TIMEOUT, math.inf),
             (["solve", DOUBLE6, "--count", "--limit", "0"], LIMIT, 0),
             (["solve", DOUBLE6, "--count", "approx", "--epsilon", "1e-300"], EPSILON, 1e-300),
             (["solve", DOUBLE6, "--count", "approx", "--epsilon", "1e6"], None, None),
             (["solve", DOUBLE6, "--count", "approx", "--delta", "1"], DELTA, 1.0)]
    for argv, rng, value in cases:
        code = main(argv)
        err = capsys.readouterr().err
        if rng is None:  # the top of the range: taken by both
            assert code == 0 and err == "", err
            continue
        assert code == 2 and err == f"satdomino: error: {rng.message(value, '--' + rng.name)}\n"
        with pytest.raises(UsageError, match=rng.name + " must be"):
            rng.check(value)
    out = BOARD.count(approx=True, epsilon=1e6)
    assert out.complete and out.value == 1


def test_approx_epsilon_too_small_is_one_line_not_an_overflow(capsys) -> None:
    code = main(["solve", DOUBLE6, "--count", "approx", "--epsilon", "1e-300"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--epsilon must be" in err
    with pytest.raises(UsageError, match="epsilon must be"):
        BOARD.count(approx=True, epsilon=1e-300)


def test_timeout_help_says_its_range(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert f"(S {TIMEOUT.bounds()}; inf is refused" in " ".join(capsys.readouterr().out.split())


def test_export_refuses_to_overwrite_the_file_it_read(tmp_path) -> None:
    path = tmp_path / "board.txt"
    path.write_text(Path(DOUBLE6).read_text())
    [p] = satdomino.read(str(path))
    for target in (str(path), str(tmp_path / "." / "board.txt")):
        with pytest.raises(UsageError, match="is also an input"):
            p.export(target)
    assert path.read_text() == Path(DOUBLE6).read_text()
    assert sorted(os.listdir(tmp_path)) == ["board.txt"]


def test_drawing_another_puzzle_s_outcome_is_refused() -> None:
    with pytest.raises(satdomino.SatDominoError, match="another puzzle's answer"):
        BOARD.text(OTHER_OUT)
    with pytest.raises(TypeError, match="outcome must be"):
        BOARD.svg(5)  # type: ignore[arg-type]
    assert "+" in BOARD.text(BOARD.solve())


def test_the_ranges_docstring_example_runs() -> None:
    assert doctest.testmod(satdomino.ranges).failed == 0
