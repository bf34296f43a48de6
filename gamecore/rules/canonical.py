"""Canonical form and fingerprint (DESIGN §2).

Canonical form = the normalised document with every field that equals its default left
out, and the name and the story (words for people, issue 38) removed. So writing a default
out or leaving it implicit gives the same form, and a field added to the schema later (with
a default) leaves every saved fingerprint unchanged. Fields derived from others (reserves)
are always written out.
"""

import hashlib
import json
from typing import Any

from .schema import RuleDoc
from .validation import parse


def canonical(doc: RuleDoc | dict) -> dict[str, Any]:
    doc = parse(doc) if isinstance(doc, dict) else doc
    data = doc.model_dump(mode="json", exclude_defaults=True)
    data.pop("name", None)
    data.pop("story", None)
    return data


def canonical_json(doc: RuleDoc | dict) -> str:
    return json.dumps(canonical(doc), sort_keys=True, separators=(",", ":"))


def fingerprint(doc: RuleDoc | dict) -> str:
    return hashlib.sha256(canonical_json(doc).encode()).hexdigest()


def document(doc: RuleDoc) -> dict[str, Any]:
    """The stored form: the canonical document plus its name (and its story, if told)."""
    story = {"story": doc.story.model_dump(mode="json", exclude_defaults=True)} if doc.story else {}
    return {"name": doc.name, **canonical(doc), **story}
