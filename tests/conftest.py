from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from satdomino.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
EXAMPLES = ROOT / "examples"


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("shared corpus ../shared/corpus is absent")
    return CORPUS


def need_binary(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


# hypothesis profiles: the default is CI's; `python -m pytest --hypothesis-profile=long
# tests/test_fuzz.py` runs twenty times as many cases (docs/design.md, "Resource limits")
from hypothesis import settings as _settings  # noqa: E402

_settings.register_profile("long", max_examples=2000, deadline=None)


def examples(count: int) -> int:
    """``count`` cases under the default profile, scaled by the profile in force."""
    return max(1, count * _settings.default.max_examples // 100)


def _sls_built() -> bool:
    from satdomino.backends.sls import sls_built

    return sls_built()


# tests of the local search, or of portfolios with it: skipped where pip had no C compiler
needs_sls = pytest.mark.skipif(not _sls_built(), reason="sls is not built (no C compiler)")


def one_error(capsys, argv: list[str], *words: str) -> str:
    """Run the CLI in this process: exit 2 and one line on stderr, holding ``words``."""
    code = main(argv)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("satdomino:"), (code, err)
    for word in words:
        assert word in lines[0], err
    return lines[0]
