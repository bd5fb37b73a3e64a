"""The Connector sandbox in a real headless Chromium: two copies of the card are laid
by real pointer drags until the Reflector's description reads and the page says it is
solved; its verdict lists the connections; a hint names the next step and marks its
card; the layout is saved into the output folder, loaded back from that file, and a
broken file shows its one-line error. ``CARDGEN_SCREENSHOTS=1`` also writes the page's
picture for the docs (docs/img/studio-connector.png)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from cardgen.api import load_assembly
from tests.studio_browser import (
    WAIT,
    browser,  # noqa: F401 (a fixture)
    console_errors,
    screenshot,
)

pytestmark = pytest.mark.slow


@pytest.fixture
def studio_url(tmp_path: Path) -> Iterator[str]:
    """A studio of the example card, writing into ``tmp_path / "out"``, with the
    Connector page."""
    from cardgen.studio.app import Studio
    from cardgen.studio.server import StudioServer

    server = StudioServer(Studio(None, tmp_path / "out"))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


def open_page(driver: Any, url: str) -> None:
    driver.get(url + "connector")
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "table")
                                      .get_attribute("data-ready") not in ("0", None))


def settled(driver: Any) -> None:
    """Wait until the page shows the verdict of its latest layout."""
    WebDriverWait(driver, WAIT).until(lambda d: d.find_element(By.ID, "table")
                                      .get_attribute("data-ready") not in ("0", None))


def card(driver: Any, number: int) -> Any:
    return driver.find_element(By.CSS_SELECTOR, f'#cards .card[data-card="{number}"]')


def where(driver: Any, number: int) -> tuple[float, float, int, str]:
    node = card(driver, number)
    return (float(node.get_attribute("data-x")), float(node.get_attribute("data-y")),
            int(node.get_attribute("data-rotation")), node.get_attribute("data-tabs"))


def click(driver: Any, element_id: str) -> None:
    driver.find_element(By.ID, element_id).click()
    settled(driver)


def select(driver: Any, number: int) -> None:
    """A real click on the card (a press and release without moving)."""
    ActionChains(driver).move_to_element(card(driver, number)).click().perform()
    settled(driver)


def drag(driver: Any, number: int, dx_mm: float, dy_mm: float) -> None:
    """A real pointer drag of the card by (dx, dy) mm on the table, in a few moves."""
    scale = driver.execute_script(  # screen pixels per table millimetre (reading only)
        "return document.getElementById('table').getScreenCTM().a;")
    dx, dy = dx_mm * scale, dy_mm * scale
    chain = ActionChains(driver).move_to_element(card(driver, number)).click_and_hold()
    done_x = done_y = 0
    for step in range(1, 5):
        to_x, to_y = round(dx * step / 4), round(dy * step / 4)
        chain.move_by_offset(to_x - done_x, to_y - done_y)
        done_x, done_y = to_x, to_y
    chain.release().perform()
    settled(driver)


def text_of(driver: Any, element_id: str) -> str:
    return str(driver.find_element(By.ID, element_id).text)


def assemble_reflector(driver: Any, url: str) -> None:
    """Card 1 turned a quarter; card 2 added, turned, folded, and dragged by hand to
    within 2 mm of its connection, where the page snaps it."""
    open_page(driver, url)
    select(driver, 1)
    click(driver, "turn-cw")
    click(driver, "add")
    select(driver, 2)
    ActionChains(driver).send_keys("r").perform()  # the key turns the focused card
    settled(driver)
    click(driver, "fold")
    assert where(driver, 1)[2:] == (90, "open")
    assert where(driver, 2)[2:] == (90, "folded")
    x1, y1, _, _ = where(driver, 1)
    x2, y2, _, _ = where(driver, 2)
    drag(driver, 2, x1 - x2 + 1.2, y1 + 11.6 - y2 - 1.5)  # 1.9 mm off: it must snap
    WebDriverWait(driver, WAIT).until(
        lambda d: d.find_element(By.ID, "status").get_attribute("data-valid") == "1")


def test_two_cards_dragged_by_hand_spell_the_reflector_and_the_page_says_so(
        browser, studio_url):  # noqa: F811
    assemble_reflector(browser, studio_url)
    status = browser.find_element(By.ID, "status")
    assert status.text.startswith("✔ Solved") and "Reflector" in status.text
    assert status.get_attribute("aria-live") == "polite"
    assert where(browser, 2)[:2] == pytest.approx((where(browser, 1)[0],
                                                   where(browser, 1)[1] + 11.6), abs=0.01)
    connections = [li.text for li in browser.find_elements(By.CSS_SELECTOR,
                                                           "#connections li")]
    assert connections == ["✔ Card 2's corner 5 on card 1's yellow 5 (0.0 mm off)",
                           "✔ Card 2's corner 6 on card 1's yellow 6 (0.0 mm off)"]
    assert "snapped" in text_of(browser, "hint-text")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#marks .joint")) == 2
    click(browser, "fit")
    screenshot(browser, "studio-connector")
    assert not console_errors(browser)


def test_a_hint_names_the_next_step_and_marks_its_card(browser, studio_url):  # noqa: F811
    open_page(browser, studio_url)
    click(browser, "hint")
    WebDriverWait(browser, WAIT).until(lambda d: "add 1 more card" in text_of(d, "hint-text"))
    click(browser, "add")
    click(browser, "hint")
    WebDriverWait(browser, WAIT).until(
        lambda d: "Turn card 1 a quarter clockwise." in text_of(d, "hint-text"))
    assert "hinted" in card(browser, 1).get_attribute("class")
    assert "hint" in card(browser, 1).get_attribute("aria-label")
    verdict = text_of(browser, "problems")
    assert "not connected" in verdict


def test_a_layout_saved_into_the_output_folder_loads_back(
        browser, studio_url, tmp_path):  # noqa: F811
    open_page(browser, studio_url)
    click(browser, "add")
    select(browser, 2)
    keys = ActionChains(browser)
    for key in ("r", "r", "f", Keys.ARROW_DOWN):
        keys.send_keys(key)
    keys.key_down(Keys.SHIFT).send_keys(Keys.ARROW_LEFT).key_up(Keys.SHIFT).perform()
    settled(browser)
    laid = [where(browser, 1), where(browser, 2)]
    assert laid[1][2:] == (180, "folded")
    click(browser, "lower")  # the selected card goes under the other: it is card 1 now
    assert [where(browser, 1), where(browser, 2)] == laid[::-1]
    assert "Card 1 selected" in text_of(browser, "selected-title")
    select(browser, 1)
    ActionChains(browser).send_keys(Keys.PAGE_UP).perform()  # and back on top
    settled(browser)
    assert [where(browser, 1), where(browser, 2)] == laid
    click(browser, "download")
    WebDriverWait(browser, WAIT).until(lambda d: "Downloaded assembly-reflector.toml" in
                                       text_of(d, "file-status"))
    click(browser, "save")
    WebDriverWait(browser, WAIT).until(lambda d: text_of(d, "file-status").startswith(
        "Wrote "))  # (not the download's line, still there until the save answers)
    saved = Path(text_of(browser, "file-status").split(" ", 1)[1].rstrip("."))
    assert saved.name == "assembly-reflector.toml"
    assembly = load_assembly(saved)
    assert [(c.x, c.y, c.rotation, c.tabs.value) for c in assembly.cards] == laid
    select(browser, 1)
    click(browser, "remove")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#cards .card")) == 1
    browser.find_element(By.ID, "load-file").send_keys(str(saved))
    WebDriverWait(browser, WAIT).until(lambda d: "Loaded" in text_of(d, "file-status"))
    settled(browser)
    assert [where(browser, 1), where(browser, 2)] == laid
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "chess"\n[[card]]\nx = 0\ny = 0\n', encoding="utf-8")
    browser.find_element(By.ID, "load-file").send_keys(str(broken))
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.ID, "error").is_displayed())
    error = text_of(browser, "error")
    assert "broken.toml" in error and "game" in error and "\n" not in error
    assert len(browser.find_elements(By.CSS_SELECTOR, "#cards .card")) == 2  # kept


def test_the_cards_follow_a_save_of_the_users_card(browser, tmp_path):  # noqa: F811
    """A save that changes the card (here its theme) lays the new picture on the table,
    as the card page draws the card again."""
    from benchmarks.bench_studio import save
    from tests.studio_browser import running_studio

    config = tmp_path / "card.toml"
    text = '[person]\nname = "Ada"\n[card]\ntheme = "light"\n'
    config.write_text(text, encoding="utf-8")

    def href(driver: Any) -> str | None:
        images = driver.find_elements(By.CSS_SELECTOR, "#cards image")
        return images[0].get_attribute("href") if images else None

    console_errors(browser)  # (what earlier tests' pages logged)
    with running_studio(config, tmp_path / "out") as studio:
        open_page(browser, studio.url)
        first = WebDriverWait(browser, WAIT).until(href)
        save(config, text.replace("light", "dark"))
        WebDriverWait(browser, WAIT).until(lambda d: (h := href(d)) and h != first)
        assert not console_errors(browser)
