"""A game's story (issue 38): the words it tells itself in, stored with the game.

A saved game keeps its story in its document (``story``, outside the canonical form, so
the fingerprint does not see it). Catalogue games seeded before stories existed have
none in their row: their story is read from the catalogue file of the same fingerprint.
"""

from functools import cache

from gamecore.rules.canonical import fingerprint
from gamecore.rules.schema import Story

from . import catalogue


@cache
def _catalogue_stories() -> dict[str, dict]:
    stories = {}
    for doc in catalogue.documents().values():
        if doc.get("story"):
            stories[fingerprint(doc)] = Story.model_validate(doc["story"]).model_dump(mode="json")
    return stories


def story_of(rule_set) -> dict | None:
    """The story of a RuleSet as a plain dict (every key present), or None."""
    told = (rule_set.document or {}).get("story")
    if told:
        return Story.model_validate(told).model_dump(mode="json")
    return _catalogue_stories().get(rule_set.fingerprint)


def shape_names(rule_set) -> dict[str, str]:
    story = story_of(rule_set)
    return dict(story["shapes"]) if story else {}
