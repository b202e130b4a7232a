"""No page asks a host other than the server: a class network may have no internet, and a
page that waits on a CDN lookup loads slowly or loses its styles."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import wait_for_board, wait_for_widgets

pytestmark = pytest.mark.browser

PAGES = (
    "classroom/pages/home.ipynb",
    "classroom/pages/solitaire.ipynb?seed=3",
    "classroom/pages/defender.ipynb?seed=3",  # hexclass' own front end, as a seat page's
    "lessons/cherbourg-combat-table.ipynb",
)


def test_pages_request_nothing_from_outside_the_server(hexclass_server, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    seen: list[str] = []
    context.on("request", lambda r: seen.append(r.url))
    page = context.new_page()
    try:
        for path in PAGES:
            page.goto(hexclass_server.url(path))
            if "home" in path:  # markdown only: no widgets to wait for
                page.wait_for_selector("a[href*='solitaire']")
                page.wait_for_load_state("networkidle")
            elif "solitaire" in path:
                wait_for_board(page)
            elif "defender" in path:
                wait_for_board(page, "canvas")
            else:
                wait_for_widgets(page)
        html = page.content()
    finally:
        context.close()
    outside = sorted({u for u in seen if urlsplit(u).hostname not in ("127.0.0.1", None)})
    assert seen and outside == [], outside
    assert "cdn.jsdelivr.net" not in html
