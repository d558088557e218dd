"""Settings and fixtures every test shares.

Hypothesis: no per-example deadline and no health check on slow generation. CI runs the
suite in parallel on a busy 2-core machine, where an example's time says nothing about the
code; speed is measured by benchmarks, never asserted by a test.

``browser``: Debian's chromium driven by Playwright, for the tests that open pages in a real
browser. `make test` installs chromium (the Makefile's `browser` target); where it is missing
those tests skip and say why. Playwright's own browser download is never used.
"""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

settings.register_profile("contack", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("contack")


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    playwright_api = pytest.importorskip("playwright.sync_api",
                                         reason="playwright is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        pytest.skip(f"no chromium at {CHROMIUM}: `make browser` installs it (apt-get, as root)")
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()
