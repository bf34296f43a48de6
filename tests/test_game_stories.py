"""Games that explain themselves (issue 38): a story stored with the game, outside its
fingerprint, shown on the game page, the match page and the game-over card."""

import json

import pytest
from django.urls import reverse

from gamecore.rules.canonical import canonical, document, fingerprint
from gamecore.rules.errors import RulesError
from gamecore.rules.validation import parse
from tests.play_helpers import bot, rule_set, start
from variants import catalogue
from variants.stories import story_of

STORIED = ["RockPaperScissors", "StagHunt", "PrisonerDilemma", "OptionalPD", "BoS"]


@pytest.mark.parametrize("name", STORIED)
def test_a_story_leaves_the_fingerprint_unchanged(name):
    doc = catalogue.get(name)
    assert doc.get("story"), name
    bare = {k: v for k, v in doc.items() if k != "story"}
    assert fingerprint(doc) == fingerprint(bare)
    assert "story" not in canonical(doc)
    assert document(parse(doc))["story"]["how_to_play"]  # kept in the stored form


def test_every_catalogue_story_is_valid_and_bounded():
    for doc in catalogue.documents().values():
        if "story" in doc:
            parse(doc)  # raises on a bad story
    bad = catalogue.get("RockPaperScissors")
    bad["story"]["shapes"]["circle"] = "R" * 25
    with pytest.raises(RulesError):
        parse(bad)
    bad["story"] = {"how_to_play": "x" * 601}
    with pytest.raises(RulesError):
        parse(bad)


def test_a_row_saved_before_stories_reads_its_story_from_the_catalogue(db):
    rps = rule_set("RockPaperScissors")
    rps.document = {k: v for k, v in rps.document.items() if k != "story"}
    assert story_of(rps)["shapes"]["circle"] == "Rock"


def _game_page(client, name):
    game = rule_set(name)
    response = client.get(reverse("variants:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_rock_paper_scissors_page_says_which_shape_is_rock(client, db):
    html = _game_page(client, "RockPaperScissors")
    assert 'data-testid="game-story"' in html
    assert "= Rock" in html and "= Paper" in html and "= Scissors" in html
    assert "Paper covers rock" in html
    # The exact line is one click away, after the plain words.
    assert html.index('data-testid="game-story"') < html.index('id="fc-summary"')
    assert html.index('data-testid="summary-line"') < html.index('id="fc-summary"')


def test_stag_hunt_page_has_stag_hare_and_its_outcome_table(client, db):
    html = _game_page(client, "StagHunt")
    assert "Black hunts stag" in html and "Black&#x27;s hare" in html
    assert 'data-testid="story-outcomes"' in html
    assert "Both hunt stag" in html and "Both win for sure" in html


def test_a_game_without_a_story_shows_none(client, db):
    html = _game_page(client, "Tic-Tac-Toe")
    assert 'data-testid="game-story"' not in html
    assert 'id="fc-summary"' in html


@pytest.mark.parametrize("name", ["RockPaperScissors", "StagHunt"])
def test_match_page_tells_the_story_and_scores_in_the_game_over_card(client, db, name):
    game = rule_set(name)
    match = start(game, None, bot("A"), bot("B"))
    html = client.get(reverse("play:match", args=[match.pk])).content.decode()
    story = catalogue.get(name)["story"]
    assert 'data-testid="match-story-how"' in html
    assert story["outcomes"][0]["when"] in html.split('data-testid="game-over-outcomes"')[1]
    boot = json.loads(
        html.split('id="match-boot" type="application/json">')[1].split("</script>")[0]
    )
    assert boot["story"]["shapes"] == story["shapes"]
    assert html.index("match-story-how") < html.index('id="vf-rules"')


def test_catalogue_stories_name_only_shapes_and_stacks_their_game_has():
    told = 0
    for name, raw in catalogue.documents().items():
        doc = parse(raw)
        if doc.story is None:
            continue
        told += 1
        assert set(doc.story.shapes) <= set(doc.shapes), name
        for space in doc.story.spaces:
            x, y, _z = space.at
            assert 1 <= x <= doc.board.size[0] and 1 <= y <= doc.board.size[1], name
    assert told >= 20


def _factory_save(client, django_user_model, **changes):
    from tests.test_factory import form_fields, post_data

    ann = django_user_model.objects.create_user("ann", password=None)
    client.force_login(ann)
    factory = reverse("variants:factory")
    data = post_data(form_fields(client.get(factory).content.decode()), name="Line7")
    data.update({"board_type": "squares", "size_x": "7", "size_y": "1", "check": "4-wins-d"})
    data.update({"reserve-black-1": "4", "reserve-white-1": "3"} | changes)
    return client.post(factory, data)


def test_a_creator_writes_how_to_play_in_the_factory(client, db, django_user_model):
    from variants.models import RuleSet

    response = _factory_save(client, django_user_model, how_to_play="  Four  in a row wins. ")
    assert response.status_code == 302
    game = RuleSet.objects.get(name="Line7")
    assert game.document["story"] == {"how_to_play": "Four in a row wins."}
    page = client.get(response["Location"]).content.decode()
    assert "Four in a row wins." in page and 'data-testid="game-story"' in page


def test_a_too_long_how_to_play_is_a_form_error(client, db, django_user_model):
    response = _factory_save(client, django_user_model, how_to_play="x" * 601)
    assert response.status_code == 400
    html = response.content.decode()
    assert "keep it to 600" in html and "x" * 601 in html  # the text is kept to edit


def test_blotto_story_names_three_battlefields_and_each_generals_stack():
    """3Blotto13's three boards are the battlefields, a column on each is one general's
    (exclusive); the engine decides each board, most boards won wins (issue 35)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "variants/catalogue/games/3Blotto13.json"
    story = json.loads(path.read_text())["story"]
    assert "three battlefields" in story["how_to_play"]
    assert [s["label"] for s in story["spaces"]] == ["Black's soldiers", "White's soldiers"]
    assert "both battlefields" not in json.dumps(story["outcomes"])
