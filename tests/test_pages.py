"""The home page and the admin (/healthz: tests/test_healthz.py)."""

import re

import pytest
from django.utils.html import escape

from variants import catalogue as games
from variants.models import RuleSet

pytestmark = pytest.mark.django_db


def test_home_lists_every_catalogue_game(client, catalogue):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Variant Foundry" in html
    for rule_set in RuleSet.objects.all():
        assert rule_set.name in html
        assert escape(rule_set.summary) in html  # Shopping9's "> 9" is escaped
    assert set(games.names()) <= set(RuleSet.objects.values_list("name", flat=True))
    assert len(games.names()) == 59  # 29 + 22 dilemmas (issue 19) + 4 cloaked (20) + 4 (34)


def test_home_without_games(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "load_catalogue" in response.content.decode()


def test_home_uses_only_local_assets(client, catalogue):
    html = client.get("/").content.decode()
    assets = re.findall(r'(?:href|src)="([^"]+\.(?:css|js))"', html)
    assert assets and all(url.startswith("/static/") for url in assets)
    assert "cdn" not in html.lower()
    assert 'name="viewport"' in html


@pytest.mark.parametrize(
    "path",
    [
        "/static/vendor/bootstrap/css/bootstrap.min.css",
        "/static/vendor/bootstrap/js/bootstrap.bundle.min.js",
        "/static/vendor/font-awesome/css/font-awesome.min.css",
        "/static/vendor/font-awesome/fonts/fontawesome-webfont.woff2",
    ],
)
def test_vendored_assets_are_served(client, path):
    response = client.get(path)
    assert response.status_code == 200
    b"".join(response.streaming_content if response.streaming else [response.content])


def test_admin_lists_and_shows_rule_sets(admin_client, catalogue):
    assert admin_client.get("/admin/variants/ruleset/").status_code == 200
    rule_set = RuleSet.objects.get(name="Connect4")
    page = admin_client.get(f"/admin/variants/ruleset/{rule_set.pk}/change/")
    assert page.status_code == 200
    assert rule_set.fingerprint in page.content.decode()


def test_admin_renames_and_checks_the_name(admin_client, catalogue):
    rule_set = RuleSet.objects.get(name="Connect4")
    url = f"/admin/variants/ruleset/{rule_set.pk}/change/"
    refused = admin_client.post(url, {"name": "has space"})
    assert refused.status_code == 200 and "whitespace" in refused.content.decode()
    taken = admin_client.post(url, {"name": "qubic-4"})
    assert taken.status_code == 200 and "already exists" in taken.content.decode()
    assert admin_client.post(url, {"name": "Four-in-a-Row"}).status_code == 302
    rule_set.refresh_from_db()
    assert rule_set.name == rule_set.document["name"] == "Four-in-a-Row"
