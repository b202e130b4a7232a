import pytest

from tests.browser.conftest import wait_for_widgets


@pytest.mark.browser
def test_smoke(voila, page, artifacts):
    page.goto(voila.url("classroom/pages/home.ipynb"))
    wait_for_widgets(page)
    page.screenshot(path=str(artifacts / "smoke.png"))
