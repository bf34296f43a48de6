from django import forms

from gamecore.rules.vocabulary import BOARD_LABELS, PLAYER_LABELS

SHOWS = {
    "": "Any kind",
    "balanced": "Balanced (90+)",
    "skill": "Skill pays (50+)",
    "quick": "Quick (≤ 15 moves)",
    "drawish": "Often drawn (25%+)",
}
SORTS = {
    "": "Best-known",
    "balanced": "Most balanced",
    "drawish": "Most draws",
    "long": "Longest",
    "short": "Shortest",
    "hard": "Most skill",
}


class GameFilterForm(forms.Form):
    """The Games page's query string: ``?q=&players=&board=&sort=`` (all optional)."""

    q = forms.CharField(
        required=False,
        max_length=64,
        label="Name",
        error_messages={"max_length": "Search for at most %(limit_value)d characters."},
    )
    players = forms.ChoiceField(
        required=False,
        label="Players",
        choices=[("", "Any number"), *PLAYER_LABELS.items()],
        error_messages={
            "invalid_choice": "Unknown number of players %(value)r: choose one of "
            + ", ".join(PLAYER_LABELS)
            + "."
        },
    )
    board = forms.ChoiceField(
        required=False,
        label="Board",
        choices=[("", "Any board"), *BOARD_LABELS.items()],
        error_messages={
            "invalid_choice": "Unknown board %(value)r: choose one of "
            + ", ".join(BOARD_LABELS)
            + "."
        },
    )
    show = forms.ChoiceField(
        required=False,
        label="Kind",
        choices=list(SHOWS.items()),
        error_messages={"invalid_choice": "Unknown kind of game %(value)r."},
    )
    sort = forms.ChoiceField(
        required=False,
        label="Sort",
        choices=list(SORTS.items()),
        error_messages={"invalid_choice": "Unknown order %(value)r."},
    )


class RenameForm(forms.Form):
    name = forms.CharField(max_length=64, label="New name")
