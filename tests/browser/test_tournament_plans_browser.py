"""The tournament plan page in headless Chromium: delete a set (confirm dismissed, then
accepted), add the sets of a plan (the choice remembered), Copy, Start, Delete (confirmed)."""

from __future__ import annotations

import pytest

from accounts.services import random_player
from leaderboards.models import Tournament
from leaderboards.services import default_universe
from tests.browser.conftest import screenshot
from tests.play_helpers import bot, rule_set
from tournaments import services as tournaments

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_every_control_of_the_plan_page(person):
    ttt = rule_set("Tic-Tac-Toe")
    page = person("tina", "trainer")
    a, b = bot("Alpha"), bot("Beta")
    sets = [([a.pk, b.pk], 100), ([a.pk, random_player().pk], 50)]
    plan = tournaments.Plan(ttt, default_universe(), "Tron-II", sets, "B", "from a leaderboard")
    t = tournaments.create_from_plan(plan, page.user, run=False)
    page.goto(t.get_absolute_url())
    screenshot(page, "tournament-plan")
    assert page.locator("[data-testid=kind]").inner_text() == "Benchmark"
    assert page.locator("[data-testid=plan-set]").count() == 2
    # Delete a set: dismissing the confirmation keeps it
    page.remove_listener("dialog", page.accept_dialogs)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.locator("[data-testid=plan-delete-set]").first.click()
    page.wait_for_timeout(300)
    assert page.locator("[data-testid=plan-set]").count() == 2
    page.on("dialog", page.accept_dialogs)
    page.locator("[data-testid=plan-delete-set]").first.click()
    page.wait_for_selector("[data-testid=kind-reason]:has-text('now Other')")
    assert page.locator("[data-testid=plan-set]").count() == 1
    assert page.locator("[data-testid=kind]").inner_text() == "Other"
    # Add the sets of this plan: doubled, and the choice is remembered
    page.locator("[data-testid=plan-source]").select_option(str(t.pk))
    page.locator("[data-testid=plan-add]").click()
    page.wait_for_selector("text=Sets added")
    assert page.locator("[data-testid=plan-set]").count() == 2
    assert page.locator("[data-testid=plan-source]").input_value() == str(t.pk)
    # Copy: a new plan's page
    page.locator("[data-testid=plan-copy]").click()
    page.wait_for_selector("text=is a new plan")
    copy = Tournament.objects.exclude(pk=t.pk).get()
    assert page.url.endswith(copy.get_absolute_url())
    assert page.locator("[data-testid=plan-set]").count() == 2
    # Delete the copy (confirmed), then start the first
    page.locator("[data-testid=plan-delete]").click()
    page.wait_for_selector("text=Deleted the plan")
    assert not Tournament.objects.filter(pk=copy.pk).exists()
    page.goto(t.get_absolute_url())
    page.locator("[data-testid=plan-start]").click()
    page.wait_for_selector("[data-testid=progress-section]")
    assert Tournament.objects.get(pk=t.pk).status in ("running", "finalising", "done")
    assert page.locator("[data-testid=plan-start]").count() == 0
