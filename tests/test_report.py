"""compare --report: one self-contained web page, checked as text and in headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from satdomino.cli import main
from satdomino.compare.report import html
from satdomino.compare.sweep import read_rows


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A small sweep: 2 backends x 2 encodings x 6 puzzles."""
    folder = tmp_path_factory.mktemp("report")
    out = folder / "runs.csv"
    assert main(["compare", "dominosa:n=6..8/2:seeds=3", "--backend", "cadical195,minisat22",
                 "--amo", "pairwise,seqcounter", "--timeout", "30", "--jobs", "2",
                 "-o", str(out), "--no-progress"]) == 0
    return out


def test_the_report_is_one_self_contained_page(results, capsys) -> None:
    page = results.parent / "r.html"
    assert main(["compare", "-o", str(results), "--report", str(page)]) == 0  # no new runs
    text = page.read_text()
    assert "report: " in capsys.readouterr().out
    # nothing fetched when viewed: no src or href, no link to a script or style
    assert not re.search(r"""(src|href)\s*=|<link|@import""", text)
    for config in ("amo=pairwise cadical195", "amo=seqcounter minisat22"):
        assert config in text
    assert text.count("<tr><td>") == 4  # a summary row per configuration
    rows = read_rows(results)
    assert html(rows) == html(rows)  # the same file gives the same page


def test_report_options_are_checked_before_any_run(tmp_path, capsys) -> None:
    for argv, words in [(["--report", str(tmp_path / "r.txt")], "as .html"),
                        (["--report", str(tmp_path / "no" / "r.html")], "no"),
                        ([], "no results")]:
        code = main(["compare", "-o", str(tmp_path / "missing.csv"), *argv])
        err = capsys.readouterr().err.strip()
        assert code == 2 and words in err and len(err.splitlines()) == 1


def _browser():
    webdriver = pytest.importorskip("selenium.webdriver")
    driver = shutil.which("chromedriver")
    if driver is None or not (shutil.which("chromium") or shutil.which("chromium-browser")):
        pytest.skip("headless Chromium needs Debian's chromium and chromium-driver "
                    "(.ci/run installs them)")
    os.environ.setdefault("SE_AVOID_STATS", "true")  # no network at test time
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options,
                            service=webdriver.ChromeService(executable_path=driver))


def test_the_report_in_headless_chromium(results) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    page = results.parent / "browse.html"
    assert main(["compare", "-o", str(results), "--report", str(page)]) == 0
    browser = _browser()
    try:
        browser.get(page.as_uri())
        assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
        assert browser.find_element(By.ID, "shown").text == "24 of 24 runs"

        def column(name: str) -> list[str]:
            heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#runshead th")]
            i = heads.index(name) + 1
            return [td.text for td in browser.find_elements(
                By.CSS_SELECTOR, f"#runsbody tr td:nth-child({i})")]

        header = next(th for th in browser.find_elements(By.CSS_SELECTOR, "#runshead th")
                      if th.text == "wall_seconds")
        header.click()
        times = [float(t) for t in column("wall_seconds")]
        assert times == sorted(times)
        header.click()  # again: descending
        assert [float(t) for t in column("wall_seconds")] == sorted(times, reverse=True)

        scatter = browser.find_element(By.ID, "scatter")
        assert scatter.get_attribute("data-points") == "6"  # 6 puzzles, both configurations
        Select(browser.find_element(By.ID, "sy")).select_by_visible_text(
            "amo=seqcounter minisat22")
        assert browser.find_element(By.ID, "scatter").find_elements(By.TAG_NAME, "circle")
        assert "amo=seqcounter minisat22" in browser.find_element(By.ID, "scatter").text

        box = browser.find_element(By.ID, "filter")
        box.send_keys("minisat22")
        assert browser.find_element(By.ID, "shown").text == "12 of 24 runs"
        assert set(column("config")) == {"amo=pairwise minisat22", "amo=seqcounter minisat22"}
        lines = browser.find_element(By.ID, "cactus").find_elements(By.TAG_NAME, "polyline")
        assert len(lines) == 4
    finally:
        browser.quit()
