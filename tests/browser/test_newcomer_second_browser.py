"""Issue 38 in the browser: what a newcomer meets in the second ten minutes."""

from __future__ import annotations

import pytest

from play import services
from tests.play_helpers import rule_set, start

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY = "[data-testid=series-ready]"
MODAL = "#vf-resign-modal"


def test_a_quick_resign_on_a_slow_phone_does_not_leave_the_dialog_over_ready(person):
    """Resign, then Resign again before the dialog has finished opening (a quick tap on a
    slow phone; a loaded machine in the tests): Bootstrap ignores hide() while a dialog is
    still opening, so the dialog used to open over the Ready button and stay there."""
    x = person("xena")
    o = person("oscar", width=390, height=844)
    match = start(rule_set("Ultimate-Tic-Tac-Toe"), x.user, x.user, o.user)
    services.answer_invitation(match.pk, o.user, accept=True)
    o.goto(match.get_absolute_url())
    o.wait_for_selector("[data-testid=board] [data-testid=cell]")
    o.evaluate(
        """() => {
        document.querySelector('[data-testid=resign]').click();
        document.querySelector('[data-testid=resign-confirm]').click();
    }"""
    )
    o.wait_for_selector(READY, state="visible")
    o.wait_for_selector(MODAL, state="hidden", timeout=5000)
    o.locator(READY).click(timeout=5000)
    o.wait_for_selector(f"{READY}[disabled]")
