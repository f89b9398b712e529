"""Constraints carry their names: every constraint of every family's models has a label in the
puzzle's words, and explanations read them (two Pips regions are never one name)."""

from __future__ import annotations

import re

import pytest

from satdomino.analysis.explain import explain
from satdomino.puzzles import FAMILIES, dominofit, dominosa, doodlefit, family, pips

PUZZLES = {"dominosa": dominosa.planted(5, 1)[0], "pips": pips.planted(8, 1)[0],
           "dominofit": dominofit.planted(6, 6, 1)[0],
           "doodlefit": doodlefit.planted(16, 4, 1)[0]}
# what each family's labels look like
SHAPES = {"dominosa": r"cell \(\d+, \d+\)|domino \d+-\d+|the number of dominoes|the halves "
                      r"showing \d+|ruled out by deduction",
          "pips": r"cell \(\d+, \d+\)|domino \d+-\d+|region [A-Za-z] \((sum|less|greater|equals|"
                  r"unequal)( -?\d+)?\)|link \(\d+, \d+\)-\(\d+, \d+\)|the halves showing \d+|"
                  r"cell \(\d+, \d+\) == \d+",
          "dominofit": r"square \(\d+, \d+\)|(row|column) \d+ sum \d+(: \d+ (vertical|horizontal) "
                       r"pieces?( starts? here)?)?|the sums with every square covered",
          "doodlefit": r"cell \(\d+, \d+\)( owned by block \w)?|block \w|"
                       r"blocks \w(, \w)+ \(alike\)"}


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_every_constraint_of_every_model_is_named_in_the_puzzles_words(kind: str) -> None:
    fam = family(kind)
    for name, build in fam.models.items():
        m = build(PUZZLES[kind])
        labels = [m.label(i) for i in range(len(m.constraints))]
        odd = [w for w in labels if not re.fullmatch(SHAPES[kind], w)]
        assert not odd, (name, odd[:3])


def test_labels_of_the_placement_models() -> None:
    m = family("dominosa").model(None)(dominosa.parse("1:001011")[0][1])
    assert {m.label(i) for i in range(len(m.constraints))} == {
        "cell (0, 0)", "cell (0, 1)", "cell (0, 2)", "cell (1, 0)", "cell (1, 1)",
        "cell (1, 2)", "domino 0-0", "domino 0-1", "domino 1-1"}
    fit = dominofit.planted(4, 4, 2)[0]
    m = family("dominofit").model("placement")(fit)
    sums = {m.label(i) for i in range(len(m.constraints)) if "sum" in m.label(i)}
    assert sums == {f"row {r} sum {fit.side[r]}" for r in range(4)} | {
        f"column {c} sum {fit.top[c]}" for c in range(4)}


def test_more_than_26_pips_regions_keep_26_plus_names() -> None:
    """The drawing letters regions A-Z then a-z: so do the labels, and no two regions share
    a name (a guess from variable names once called two of them "region A")."""
    p = pips.planted(40, 1)[0]
    ruled = [r for r in p.regions if r.rule != "empty"]
    assert len(p.regions) > 26
    m = pips.build_placement(p)
    names = {m.label(i) for i in range(len(m.constraints)) if m.label(i).startswith("region")}
    assert len(names) == len(ruled)
    letters = pips.region_names(p)
    drawn = pips.render_text(p, None)
    for k, r in enumerate(p.regions):
        if r.rule != "empty":
            assert any(n.startswith(f"region {letters[k]} (") for n in names)
            assert f"  {letters[k]}: " in drawn
    # explanations name the regions by these labels
    out = explain(p, family("pips"), timeout=5)  # the steps found by then
    used = {u for s in out.steps for u in s.uses if u.startswith("region")}
    used |= {re.sub(r".*would break (region \S+ \([^)]*\)).*", r"\1", r.rule)
             for s in out.steps for r in s.ruled_out if "would break region" in r.rule}
    assert used <= names


def test_every_registered_family_labels_its_default_model() -> None:
    for kind, fam in FAMILIES.items():
        if kind in PUZZLES:
            m = fam.model(None)(PUZZLES[kind])
            unnamed = [i for i in range(len(m.constraints))
                       if m.label(i).startswith(type(m.constraints[i]).__name__ + " ")]
            assert not unnamed, kind
