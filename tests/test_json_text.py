"""play.json_text: the hot paths' JSON is the same value as ``json`` makes of it."""

import json

from play import json_text


def test_dumps_is_json_of_the_same_value_with_seats_as_text_keys():
    view = {"seat": 1, "hands": {0: ["a"], 1: []}, "note": 'é "quoted" \\', "x": None}
    text = json_text.dumps(view)
    assert isinstance(text, str)
    assert json.loads(text) == json.loads(json.dumps(view))  # int keys become text, as there
    assert json_text.loads(text) == json.loads(text)
    assert json_text.loads(text.encode()) == json.loads(text)
