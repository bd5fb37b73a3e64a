"""The studio's Rotator page in a real headless Chromium, played by key presses only: a
game won on the line the solver finds (computed here, then typed as arrow keys and
Enter), hints and undo by H and U, a loss explained in words, and bad board IDs and
seeds answered with one line. Nothing is done through JavaScript but reading the page.

With ``CARDGEN_SCREENSHOTS=1`` the test of hints also writes docs/img/studio-rotator.png
(1280 × 800, the viewport)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from cardgen.api import (
    CardgenError,
    generate_rotator,
    play_rotator,
    rotator_board,
    rotator_decide,
    rotator_hint_record,
)
from tests import studio_browser
from tests.studio_browser import console_errors, screenshot

pytestmark = pytest.mark.slow

browser = studio_browser.browser  # the fixture: one headless Chromium for the module



@pytest.fixture(scope="module")
def studio_url(tmp_path_factory) -> Iterator[str]:
    """A studio serving the Rotator page, for this module's browser."""
    from cardgen.studio.app import Studio
    from cardgen.studio.server import StudioServer

    server = StudioServer(Studio(None, tmp_path_factory.mktemp("out")))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"  # best: 5 turns, 7 boosts from A:E10
LOSING = [1, 1, 1, 1, 1]  # A:A10, then fall only: A:A10 fills in under you in turn 4
WAIT = 30  # seconds: generous, never a bound on speed


def winning_numbers(board: str) -> list[int]:
    """The numbers of the choices of a shortest winning line, from the solver's hints."""
    game, taken = play_rotator(board), []
    while game.phase.value != "won":
        hint = rotator_hint_record(game)
        assert hint["status"] == "win"
        taken.append(hint["option"])
        rotator_decide(game, hint["option"])
    return taken


def press(browser, *keys: str) -> None:
    """Real key presses, to whatever has the focus."""
    ActionChains(browser).send_keys(*keys).perform()


def back(browser) -> None:
    """Shift+Tab."""
    ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()


def body(browser):
    return browser.find_element(By.TAG_NAME, "body")


def until(browser, check, what: str):
    return WebDriverWait(browser, WAIT, poll_frequency=0.05).until(
        lambda _: check(), message=what)


def drawn(browser, version: int, game: str | None = None) -> None:
    """Wait until the page has drawn the game at ``version``."""
    def ready() -> bool:
        b = body(browser)
        return (b.get_attribute("data-version") == str(version)
                and (game is None or b.get_attribute("data-game") == game))
    until(browser, ready, f"the page never drew version {version}")


def focused(browser):
    return browser.switch_to.active_element


def start_by_keys(browser, studio_url: str, text: str) -> str:
    """Open the page, type a board ID into the focused box, press Enter; the game's id."""
    browser.get(studio_url + "rotator")
    box = browser.find_element(By.ID, "rot-board-id")
    until(browser, lambda: focused(browser) == box, "the board ID box is not focused")
    press(browser, text, Keys.ENTER)
    until(browser, lambda: body(browser).get_attribute("data-game"), "no game started")
    return body(browser).get_attribute("data-game")


def take(browser, n: int, version: int) -> None:
    """Choice n by the arrow keys from the first choice (where the focus lands), then
    Enter; wait for the next version."""
    until(browser, lambda: focused(browser).get_attribute("data-option") == "1",
          "the first choice is not focused")
    press(browser, *([Keys.ARROW_DOWN] * (n - 1)))
    assert focused(browser).get_attribute("data-option") == str(n)
    press(browser, Keys.ENTER)
    drawn(browser, version + 1)


def text(browser, element_id: str) -> str:
    return browser.find_element(By.ID, element_id).get_attribute("textContent").strip()


def test_a_game_is_won_by_key_presses(browser, studio_url):
    line = winning_numbers(BOARD)
    start_by_keys(browser, studio_url, BOARD)
    for version, n in enumerate(line):
        take(browser, n, version)
    assert body(browser).get_attribute("data-phase") == "won"
    verdict = browser.find_element(By.ID, "rot-verdict")
    assert verdict.is_displayed() and focused(browser) == verdict
    assert text(browser, "rot-verdict-text") == (
        "★ You win in turn 5: you reached grid B's Row 10 at B:A10, spending 7 of your 10 "
        "boost spaces.")
    until(browser, lambda: "You win in turn 5" in text(browser, "rot-say"),
          "the live region never said the win")
    assert browser.find_element(By.ID, "rot-say").get_attribute("aria-live") == "polite"
    assert text(browser, "rot-boost-text") == "Boost cache: 3 of 10 left"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#rot-log li")) == 5
    assert not browser.find_elements(By.CSS_SELECTOR, "#rot-options button")


def test_hints_and_undo_by_key_presses(browser, studio_url):
    game = start_by_keys(browser, studio_url, BOARD)
    session = play_rotator(BOARD)
    press(browser, "h")
    until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".rot-hinted"),
          "no choice was marked as the hint")
    advised = rotator_hint_record(session)
    assert focused(browser).get_attribute("data-option") == str(advised["option"])
    assert "HINT" in focused(browser).text.upper()
    until(browser, lambda: text(browser, "rot-say") == advised["text"], "no hint said")
    press(browser, Keys.ENTER)  # the hinted start: A:E10
    drawn(browser, 1, game)
    rotator_decide(session, advised["option"])
    # The choices of turn 1 are the engine's, each with what it would do.
    buttons = browser.find_elements(By.CSS_SELECTOR, "#rot-options button")
    assert [b.find_element(By.CLASS_NAME, "rot-option-words").text for b in buttons] == [
        "fall only", "drill", "drill and boost 1", "drill and boost 2"]
    assert "capture the Node at A:E4" in buttons[3].text
    # The choice with the focus is drawn on the board: its path and where it ends.
    press(browser, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
    until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#rot-preview .rot-end"),
          "the choice is not drawn on the board")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#rot-preview .rot-step-boost")) == 2
    press(browser, "u")
    drawn(browser, 2, game)
    assert body(browser).get_attribute("data-phase") == "start"
    until(browser, lambda: text(browser, "rot-say") == "Taken back.", "undo said nothing")
    press(browser, "U")
    until(browser, lambda: text(browser, "rot-say") == "Nothing to take back.",
          "a second undo said nothing")
    assert body(browser).get_attribute("data-version") == "2"
    # N goes to the board ID box, where a seed's board starts a new game.
    press(browser, "n")
    until(browser, lambda: focused(browser).get_attribute("id") == "rot-board-id", "N")
    press(browser, Keys.TAB, "7", Keys.TAB, "h")  # the seed, then "hard" in its list
    back(browser)
    assert focused(browser).get_attribute("id") == "rot-seed"
    press(browser, Keys.ENTER)
    made = generate_rotator(seed=7, count=1, difficulty="hard", jobs=1)
    until(browser, lambda: text(browser, "rot-title") == f"Rotator · {made.board_ids[0]}",
          "the seed's board was not started")
    assert body(browser).get_attribute("data-game") != game
    picture(browser, studio_url)  # written with CARDGEN_SCREENSHOTS only
    assert console_errors(browser) == []


def picture(browser, studio_url: str) -> None:
    """The page in the middle of a game for the guide: turn 2 after a capture, the start
    square chosen, a hint asked for and the choice it advises drawn on the board."""
    game = start_by_keys(browser, studio_url, BOARD)
    for version, n in enumerate(winning_numbers(BOARD)[:3]):
        take(browser, n, version)
    press(browser, "h")
    until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".rot-hinted"), "no hint")
    until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, "#rot-preview .rot-end"),
          "the hint is not drawn")
    assert body(browser).get_attribute("data-game") == game
    screenshot(browser, "studio-rotator")


def test_a_loss_is_explained_and_taken_back(browser, studio_url):
    start_by_keys(browser, studio_url, BOARD)
    for version, n in enumerate(LOSING):
        take(browser, n, version)
    assert body(browser).get_attribute("data-phase") == "lost"
    verdict = browser.find_element(By.ID, "rot-verdict")
    assert focused(browser) == verdict
    assert text(browser, "rot-verdict-text") == (
        "✕ You lose in turn 4: A:A10, the square you stood on after the fall, was touched "
        "in turn 1 and filled in at the collapse step of turn 4.")
    assert text(browser, "rot-verdict-why") == "Turn 4 ←: A:A10 collapses under you: lost"
    assert browser.find_element(By.CSS_SELECTOR, ".rot-you-lost").is_displayed()
    press(browser, "u")
    drawn(browser, len(LOSING) + 1)
    assert body(browser).get_attribute("data-phase") == "move"
    assert not verdict.is_displayed()
    # Before that turn the page warned: the square under you fills in now.
    assert text(browser, "rot-fills") == (
        "Fills in this turn: A:A10 (touched in turn 1). Careful: you stand on one of them "
        "unless the fall carries you off it.")
    assert browser.find_element(By.CSS_SELECTOR, '[data-cell="A:A10"] .rot-due')
    assert "✕ loses" in focused(browser).text


@pytest.mark.parametrize("typed,seed", [
    ("R1:B2B8E4I2I8-B4E2E8H4IX", False),
    ("R1:B2B2E4I2I8-B4E2E8H4I9", False),
    ("seven", True),
    ("18446744073709551616", True),
])
def test_bad_ids_and_seeds_show_one_line(browser, studio_url, typed, seed):
    browser.get(studio_url + "rotator")
    box = browser.find_element(By.ID, "rot-board-id")
    until(browser, lambda: focused(browser) == box, "the board ID box is not focused")
    press(browser, *((Keys.TAB, typed) if seed else (typed,)), Keys.ENTER)
    error = browser.find_element(By.ID, "rot-error")
    until(browser, error.is_displayed, "no error shown")
    shown = error.text
    if not seed:
        with pytest.raises(CardgenError) as refused:
            rotator_board(typed)
        assert shown == str(refused.value)
    else:
        assert shown.startswith("seed must be")
    assert "\n" not in shown and error.get_attribute("role") == "alert"
    assert not browser.find_element(By.ID, "rot-game").is_displayed()


def test_a_click_on_a_square_and_tab_between_the_choices(browser, studio_url):
    game = start_by_keys(browser, studio_url, BOARD)
    square = browser.find_element(By.CSS_SELECTOR, '.rot-offered[data-cell="A:E10"]')
    ActionChains(browser).move_to_element(square).click().perform()  # a real pointer
    drawn(browser, 1, game)
    assert body(browser).get_attribute("data-phase") == "move"
    until(browser, lambda: text(browser, "rot-say") == "You stand on A:E10.", "no start said")
    until(browser, lambda: focused(browser).get_attribute("data-option") == "1", "focus")
    press(browser, Keys.TAB)
    assert focused(browser).get_attribute("data-option") == "2"
    back(browser)
    assert focused(browser).get_attribute("data-option") == "1"
    press(browser, Keys.END)
    assert focused(browser).get_attribute("data-option") == "4"
    press(browser, Keys.ARROW_DOWN)  # round to the first again
    assert focused(browser).get_attribute("data-option") == "1"
