"""The factory's form controls as data: a dropdown (``Control``) and its options.

The templates print these; the rules that fill them live in the layout modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COMING = "Coming: the game engine does not play this yet."


@dataclass
class Option:
    value: str
    label: str
    selected: bool = False
    disabled: bool = False


@dataclass
class Control:
    """One dropdown (or integer select) of the page."""

    name: str
    label: str  # for screen readers (and the saved page's alt text)
    options: list[Option]
    disabled: bool = False
    coming: str = ""  # why it is disabled, when the engine cannot play it yet
    refresh: bool = False  # changing it re-renders the dependent parts (htmx)
    short: str = ""  # a visible label in front of the select ("x", "y", "z")
    integer: bool = False  # an integer select (zero counts as blank on a saved page)
    hide_when_saved: bool = False  # cleared and disabled: nothing to show on a saved page
    errors: list[str] = field(default_factory=list)
    id: str = ""
    help: str = ""  # what the option does (the seed's words), shown under it
    reason: str = ""  # why it is disabled, when another control rules it out
    note: str = ""  # why some of its options are disabled
    keep: bool = False  # disabled, but its value is still posted (a hidden input)
    max: str = ""  # an integer select's maximum, when options past it are offered (data-max)

    def __post_init__(self):
        self.id = self.id or "id_" + self.name

    @property
    def value(self) -> str:
        return next((o.value for o in self.options if o.selected), "")

    @property
    def selected_label(self) -> str:
        return next((o.label for o in self.options if o.selected), "")

    @property
    def blank(self) -> bool:
        """Blank dropdowns and integer selects of zero are hidden on a saved page."""
        return self.hide_when_saved or self.value == "" or (self.integer and self.value == "0")


def select(name, label, choices, value, **kwargs) -> Control:
    """A control from (value, label) pairs; a current value that is not among them (a stale
    or hand-made post) is kept as an extra option, so the page shows what was submitted."""
    value = "" if value is None else str(value)
    options = [Option(str(v), lab, str(v) == value) for v, lab in choices]
    if not any(o.selected for o in options):
        options.append(Option(value, value or "—", True))
    return Control(name, label, options, **kwargs)


def coming(name, label, labels, selected=0, blank=False) -> Control:
    """A disabled dropdown for an option the engine cannot play yet (shown, never saved)."""
    options = [Option("", "", selected == -1)] if blank else []
    options += [Option(str(i), text, i == selected) for i, text in enumerate(labels)]
    return Control(name, label, options, disabled=True, coming=COMING)
