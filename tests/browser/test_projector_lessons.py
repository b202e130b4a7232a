"""The lessons changed for issue 25, as Voilà pages at a projector's 1366x768: every
what-if is a control on the page, hex labels are at least 12 px on screen, the retreat
lesson draws its map. Each test leaves a screenshot in test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import canvas_point, settle, wait_for_widgets

pytestmark = pytest.mark.browser

TIMEOUT = 120_000
PROJECTOR = {"width": 1366, "height": 768}


@pytest.fixture()
def projector(browser):
    ctx = browser.new_context(viewport=PROJECTOR)
    pg = ctx.new_page()
    yield pg
    ctx.close()


def open_lesson(voila, page, name: str, selector: str) -> None:
    page.goto(voila.url(f"lessons/{name}.ipynb"), timeout=TIMEOUT)
    wait_for_widgets(page)
    page.wait_for_selector(selector, timeout=TIMEOUT)


def wait_for_text(page, text: str, within: str = "body") -> None:
    page.wait_for_function(
        "([s, t]) => { const e = document.querySelector(s); return e && e.innerText.includes(t); }",
        arg=[within, text],
        timeout=TIMEOUT,
    )


def on_screen_scale(page, selector: str) -> float:
    """Displayed pixels per canvas pixel of the first canvas in ``selector``."""
    return page.evaluate(
        "s => { const c = document.querySelector(s); return c.getBoundingClientRect().width / c.width; }",
        selector,
    )


def label_px(view) -> int:
    """The hex labels' font size in canvas pixels, as the board draws them."""
    from hexclass.widgets.ca_board import LABEL_PX

    return max(int(view.board.layout.size * 0.27), view.board.buffer_px(LABEL_PX))


def shoot(page, selector: str, artifacts, name: str) -> None:
    page.locator(selector).first.evaluate("e => e.scrollIntoView({block: 'start'})")
    settle(page)  # the scroll painted (two animation frames) before the picture
    page.screenshot(path=str(artifacts / name))


def test_defender_lab_counts_recovered_platoons_and_labels_are_readable(
    voila, projector, artifacts
):
    from hexclass.widgets.ca_defender_lab import DefenderLab

    page, lab = projector, ".hexclass-defender-lab"
    open_lesson(voila, page, "ca-defenders-mind", f"{lab} canvas")
    page.locator(f"{lab} select").first.select_option(label="Figure 6: fire combat")
    wait_for_text(page, "(total 60)", lab)  # the engine's enemy phase gives 60, not 33
    view = DefenderLab().view
    assert label_px(view) * on_screen_scale(page, f"{lab} canvas") >= 12
    page.locator(f"{lab} select").nth(2).select_option(label="F1 (now in 5e)")
    page.locator(f"{lab} select").nth(3).select_option("3e")
    wait_for_text(page, "(total 30)", lab)  # F1 pulled back: the crest post's best falls
    shoot(page, lab, artifacts, "projector-ca-defenders-mind.png")


def test_code_what_ifs_are_controls_on_the_page(voila, projector, artifacts):
    page = projector
    open_lesson(voila, page, "ca-fire-and-odds", ".hexclass-assault-what-if")
    what_if = ".hexclass-assault-what-if"
    wait_for_text(page, "Chance to pin 4d: 67%", what_if)
    for uid in ("A1", "E1", "E2"):
        page.locator(f"{what_if} .widget-toggle-buttons:has-text('{uid}')").get_by_role(
            "button", name="held back"
        ).click()
    wait_for_text(page, "Chance to pin 4d: 94%", what_if)
    shoot(page, what_if, artifacts, "projector-ca-fire-and-odds-what-if.png")

    open_lesson(voila, page, "ca-playing-as-a-team", ".hexclass-team-size")
    team = ".hexclass-team-size"
    page.locator(team).get_by_role("button", name="6 players").click()
    wait_for_text(page, "Overall commander (ends phases and the game): commander", team)
    step = page.get_by_role("button", name="Next step ▶")
    for _ in range(7):
        step.click()
    wait_for_text(page, "The first turn is over")
    expect(step).to_be_disabled(timeout=90_000)
    shoot(page, team, artifacts, "projector-ca-playing-as-a-team.png")


def test_road_cut_is_chosen_from_a_dropdown(voila, projector, artifacts):
    page, cut = projector, ".hexclass-road-cut"
    open_lesson(voila, page, "toaw-supply", cut)
    wait_for_text(page, "town shows, with the cut", cut)
    page.locator(f"{cut} select").select_option(label="nowhere: the road stays open")
    page.wait_for_function(
        "s => document.querySelector(s).innerText.includes('74% of force supply')",
        arg=cut,
        timeout=TIMEOUT,
    )
    shoot(page, cut, artifacts, "projector-toaw-supply-road-cut.png")


def test_retreat_lesson_draws_its_map_and_answers_a_click(voila, projector, artifacts):
    from hexclass.widgets.cherbourg_retreat import RetreatLab

    page, lab = projector, ".hexclass-retreat-lab"
    open_lesson(voila, page, "cherbourg-combat-table", f"{lab} canvas")
    wait_for_text(page, "Under siege: yes", lab)
    board = RetreatLab().board
    page.locator(f"{lab} canvas").first.scroll_into_view_if_needed()
    page.mouse.click(*canvas_point(page, board, (2, 0), f"{lab} canvas"))
    wait_for_text(page, "Under siege: no", lab)
    text = page.locator(lab).inner_text()
    assert "(0, 0)" not in text and "True" not in text
    shoot(page, lab, artifacts, "projector-cherbourg-retreats.png")


WORDS_BROKEN_ACROSS_LINES = """sel => {
  const root = document.querySelector(sel);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const broken = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /\\S+/g;
    let m;
    while ((m = re.exec(node.data)) !== null) {
      const r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


def test_the_coachs_words_are_never_split_across_lines(voila, projector, artifacts):
    from tests.browser.conftest import wait_for_kernel_idle

    page = projector
    page.goto(voila.url("classroom/pages/solitaire.ipynb?seed=11"), timeout=TIMEOUT)
    wait_for_widgets(page)
    page.wait_for_selector(".hexclass-coach", timeout=TIMEOUT)
    wait_for_kernel_idle(page)
    page.locator(".hexclass-coach button", has_text="Suggest").first.click()
    page.wait_for_function(
        "() => { const c = document.querySelector('.hexclass-coach');"
        " return !!c && c.querySelector('ol li') !== null; }",
        timeout=TIMEOUT,
    )
    assert page.evaluate(WORDS_BROKEN_ACROSS_LINES, ".hexclass-coach") == []
    shoot(page, ".hexclass-coach", artifacts, "projector-solitaire-coach.png")
