"""The studio under test: a server in this process, and a real headless Chromium.

``running_studio(config, output)`` starts :class:`cardgen.studio.server.StudioServer` on a
free loopback port in a background thread and stops it afterwards; the ``browser``
fixture is Selenium driving Debian's ``chromium`` through its ``chromedriver`` (the
packages ``chromium`` and ``chromium-driver``, which ``.ci/run`` installs), with a
1280 × 800 viewport. Without them the browser tests are skipped, except on CI (the ``CI``
environment variable set), where a missing browser fails them.

Screenshots for the guide: with ``CARDGEN_SCREENSHOTS=1`` the browser tests write their
page's picture into ``docs/img/`` (:func:`screenshot`); otherwise they write nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMEDRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
VIEWPORT = (1280, 800)
WAIT = 30.0  # seconds an event may take on a loaded machine before a test gives up
SCREENSHOTS = ROOT / "docs" / "img"


@dataclass
class RunningStudio:
    url: str
    token: str
    studio: Any
    server: Any
    log: list[str]


@contextlib.contextmanager
def running_studio(config: Path | None, output: Path, *, name: str = "card"
                   ) -> Iterator[RunningStudio]:
    """A studio serving ``config`` (None: the example) into ``output``, until the block
    ends."""
    from cardgen.studio.app import Studio
    from cardgen.studio.server import StudioServer

    log: list[str] = []
    lock = threading.Lock()

    def keep(line: str) -> None:
        with lock:
            log.append(line)

    studio = Studio(config=config, output=output, name=name, log=keep)
    server = StudioServer(studio)
    server.start()
    try:
        yield RunningStudio(server.url, server.token, studio, server, log)
    finally:
        server.stop()


def _first(paths: tuple[str, ...]) -> str | None:
    return next((p for p in paths if os.access(p, os.X_OK)), None)


def browser_paths() -> tuple[str, str] | None:
    """Chromium and its chromedriver, when both are installed."""
    chromium = _first(CHROMIUM) or shutil.which("chromium")
    driver = _first(CHROMEDRIVER) or shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


def new_browser() -> Any:
    """A headless Chromium with a 1280 × 800 viewport, driven by Selenium."""
    paths = browser_paths()
    if paths is None:
        if os.environ.get("CI"):
            pytest.fail("chromium and chromedriver are missing: .ci/run installs them")
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium "
                    "chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.fail("selenium is missing: pip install -e '.[test]'")
    chromium, driver_path = paths
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", f"--window-size={VIEWPORT[0]},{VIEWPORT[1]}",
                     "--hide-scrollbars", "--force-color-profile=srgb",
                     "--disable-features=Translate,MediaRouter",
                     "--no-first-run", "--lang=en-GB"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": VIEWPORT[0], "height": VIEWPORT[1], "deviceScaleFactor": 1, "mobile": False})
    driver.set_script_timeout(WAIT)
    return driver


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One browser for a test module (a new Chromium takes about a second)."""
    driver = new_browser()
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(driver: Any, condition: Callable[[Any], Any], message: str,
             timeout: float = WAIT) -> Any:
    """What ``condition(driver)`` returns once it is truthy (polled every 20 ms)."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(condition, message)


def console_errors(driver: Any) -> list[str]:
    """The page's console errors so far (a page that works has none)."""
    try:
        entries = driver.get_log("browser")
    except Exception:
        return []
    return [e["message"] for e in entries if e.get("level") == "SEVERE"
            and "favicon.ico" not in e["message"]]


def screenshot(driver: Any, name: str) -> Path | None:
    """The viewport as ``docs/img/NAME.png`` when ``CARDGEN_SCREENSHOTS`` is set."""
    if not os.environ.get("CARDGEN_SCREENSHOTS"):
        return None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path
