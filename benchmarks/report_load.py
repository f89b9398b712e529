"""The web report of a 100-run sweep (not a test): ``python -m benchmarks.report_load``.

Runs ``compare`` on 25 planted Dominosa boards x 2 backends x 2 at-most-one encodings (100
runs), writes ``--report``, and opens the page in headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium) several times: the page's size, and the median time from
navigation to the end of its load event (its script has drawn the plots and the table).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    from selenium import webdriver  # the benchmark's own dependency (the test extra has it)

    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "report.html"
        subprocess.run([sys.executable, "-m", "satdomino.cli", "compare",
                        "dominosa:n=6..14/2:seeds=5", "--backend", "cadical195,minisat22",
                        "--amo", "pairwise,seqcounter", "--timeout", "20", "-o",
                        str(Path(folder) / "runs.csv"), "--report", str(page), "--no-progress"],
                       check=True, capture_output=True)
        os.environ.setdefault("SE_AVOID_STATS", "true")
        options = webdriver.ChromeOptions()
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu"):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(
            executable_path=shutil.which("chromedriver")))
        try:
            times = []
            for _ in range(args.repeats):
                driver.get(page.as_uri())
                times.append(driver.execute_script(
                    "return performance.getEntriesByType('navigation')[0].loadEventEnd"))
        finally:
            driver.quit()
        print(f"report of 100 runs: {page.stat().st_size / 1000:.1f} KB; loaded in "
              f"{statistics.median(times):.0f} ms (median of {args.repeats}; first "
              f"{times[0]:.0f} ms)")


if __name__ == "__main__":
    main()
