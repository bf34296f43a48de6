"""The factory's one story control (issue 38): a creator's "how to play", stored as the
game's story (outside its fingerprint). Bounded here so a long text is a form error,
not a surprise from the rules' validation."""

HOW_TO_PLAY_MAX = 600


def how_to_play(post) -> tuple[str, list[dict]]:
    """The posted text, whitespace tidied, and the errors it has (a path of its own)."""
    text = " ".join(str(post.get("how_to_play", "")).split())
    if len(text) > HOW_TO_PLAY_MAX:
        return text, [
            {
                "path": "how_to_play",
                "message": f"How to play is {len(text)} characters: keep it to {HOW_TO_PLAY_MAX}.",
            }
        ]
    return text, []


def with_story(doc: dict, text: str) -> dict:
    return {**doc, "story": {"how_to_play": text}} if text else doc
