"""The card page in a real headless Chromium: the card appears, a save redraws it, a
broken config shows its error over the last good picture, the buttons write the print
files; and the figures of the guide's benchmarks page (the time from a save to the new
picture, the server's memory over 200 edits)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.bench_studio import CONFIG as BENCH_CONFIG
from benchmarks.bench_studio import save
from tests.studio_browser import (
    browser,  # noqa: F401 (a fixture)
    console_errors,
    running_studio,
    screenshot,
    wait_for,
)

pytestmark = pytest.mark.slow

CONFIG = BENCH_CONFIG + '\n[card]\ntheme = "dark"\n'


def shown(driver) -> tuple[int, int, float]:
    """The page's (build, picture shown, when it was drawn, in ms since the epoch)."""
    data = driver.execute_script(
        "const s = document.getElementById('spreads');"
        "return [s.dataset.generation, s.dataset.shown, s.dataset.renderedAt || '0'];")
    return int(data[0]), int(data[1]), float(data[2])


def outside_text(driver) -> str:
    return driver.execute_script(
        "return document.querySelector('#outside svg')?.textContent || '';")


def test_the_card_appears_redraws_on_save_and_keeps_the_last_good_picture(
        browser, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)  # the config named as a user types it: card.toml
    config = Path("card.toml")
    config.write_text(CONFIG.format(name="Ada Lovelace"), encoding="utf-8")
    output = tmp_path / "output"
    with running_studio(config, output) as studio:
        browser.get(studio.url)
        wait_for(browser, lambda d: "Ada Lovelace" in outside_text(d), "the card appears")
        ladder = browser.find_element("id", "ladder").text
        assert ladder.startswith("Corporate Ladder: ")
        assert browser.find_element("id", "inside").find_elements("css selector", "svg")
        screenshot(browser, "studio-card")

        # A save redraws the card (the new name is in the picture).
        _, before, _ = shown(browser)
        save(config, CONFIG.format(name="Grace Hopper"))
        wait_for(browser, lambda d: shown(d)[1] > before and "Grace Hopper" in outside_text(d),
                 "the picture changes after a save")

        # A broken config: its one-line error over the last good picture.
        _, good, _ = shown(browser)
        save(config, CONFIG.format(name="Grace Hopper").replace("[card]", "[card\n"))
        error = wait_for(browser, lambda d: d.find_element("id", "error").text or None,
                         "the error appears")
        assert error.startswith("card.toml: invalid TOML") and "\n" not in error
        assert shown(browser)[1] == good and "Grace Hopper" in outside_text(browser)
        assert "stale" in browser.find_element("id", "spreads").get_attribute("class")
        assert browser.find_element("id", "write").get_attribute("disabled")
        screenshot(browser, "studio-card-error")

        # Fixed: the error goes, the card is drawn again.
        save(config, CONFIG.format(name="Katherine Johnson"))
        wait_for(browser, lambda d: "Katherine Johnson" in outside_text(d)
                 and not d.find_element("id", "error").is_displayed(), "the error goes")

        # The buttons write the print files, all or none, into the output folder.
        browser.find_element("id", "write-pdf").click()
        written = wait_for(browser, lambda d: d.find_element("id", "written").text
                           if "card.pdf" in d.find_element("id", "written").text else None,
                           "the files are written")
        assert "wrote card.pdf" in written
        assert sorted(p.name for p in output.iterdir()) == ["card-dieline.pdf", "card.pdf"]
        assert (output / "card.pdf").read_bytes().startswith(b"%PDF-")
        browser.find_element("id", "write").click()
        wait_for(browser, lambda d: "replaced card.pdf" in d.find_element("id", "written").text,
                 "the files are replaced")
        assert sorted(p.name for p in output.iterdir()) == [
            "card-dieline.pdf", "card-dieline.png", "card-dieline.svg", "card-inside.png",
            "card-inside.svg", "card-outside.png", "card-outside.svg", "card.pdf"]
        assert not console_errors(browser)
        assert not [line for line in studio.log if not line.startswith("wrote ")]


def test_the_example_card_and_its_warnings_show_without_a_config(browser, tmp_path):  # noqa: F811
    with running_studio(None, tmp_path / "out") as studio:
        browser.get(studio.url)
        wait_for(browser, lambda d: outside_text(d), "the example appears")
        assert browser.find_element("id", "source").text == "The built-in example"
        assert re.match(r"Corporate Ladder: \w+, Strength \d",
                        browser.find_element("id", "ladder").text)


def test_figures_save_to_picture_and_memory_over_200_edits(browser, capsys):  # noqa: F811
    """The guide's figures (benchmarks/bench_studio.py prints them): every one of 220
    saves is drawn in the page, and the server's memory after the last 200 grows by at
    most 20 %. The times are printed, not bounded (a loaded machine is slower)."""
    from benchmarks.bench_studio import measure

    figures = measure(edits=20, memory_edits=200, driver=browser)
    assert len(figures["edits"]) == 20 and all(t > 0 for t in figures["edits"])
    assert figures["growth"] <= 0.20, figures
    with capsys.disabled():
        print(f"\nstudio: save -> picture median {figures['median'] * 1000:.0f} ms, memory "
              f"{figures['growth'] * 100:+.1f} % over 200 edits")
