"""The player factory's form: name, universe, avatar, kind, and the kind's settings.

Every algorithm's parameters are fields of their own (``s_<algorithm>_<param>`` for a
search AI, ``l_<algorithm>_<param>`` for a learning one, ``p_<trait>`` for personality);
only the chosen algorithm's are read, and their errors name them. The page's script shows
just the chosen ones; without it, all are shown and still work.
"""

from __future__ import annotations

from django import forms

from leaderboards.services import universes_for

from . import learning
from .models import AVATARS, AIPlayer
from .search import SEARCH_ALGORITHMS
from .services import FactoryError, clean_name, clean_settings

FUTURE_TRAITS = (("introvert", "Introvert"), ("empath", "Empath"), ("curious", "Curious"))


def learning_catalogue() -> tuple[dict, list]:
    """The learning core's algorithms and personality traits ({} and [] if the core is
    not installed on this server: the factory then offers search AIs only)."""
    try:
        return learning.algorithms(), learning.personality()
    except ImportError:
        return {}, []


def _number_field(prefix: str, spec: dict) -> forms.Field:
    label = spec["label"]
    messages = {
        "min_value": f"{label}: at least {spec['min']}.",
        "max_value": f"{label}: at most {spec['max']}.",
        "invalid": f"{label}: a {'whole ' if spec.get('integer') else ''}number.",
        "step_size": f"{label}: in steps of {spec['step']}.",
    }
    cls = forms.IntegerField if spec.get("integer") else forms.FloatField
    attrs = {"step": spec.get("step", "any"), "data-param": prefix}
    if prefix.startswith("p_"):
        attrs["class"] = "form-range"
    field = cls(
        label=label, required=False, min_value=spec["min"], max_value=spec["max"],
        initial=spec["default"], help_text=spec.get("help", ""), error_messages=messages,
        widget=forms.NumberInput(attrs=attrs) if not prefix.startswith("p_")
        else forms.NumberInput(attrs={**attrs, "type": "range"}),
    )  # fmt: skip
    field.validators = [v for v in field.validators if not hasattr(v, "step_size")]
    return field


class AIPlayerForm(forms.Form):
    name = forms.CharField(
        max_length=64,
        help_text="As a game's name: no spaces, '*', '(' or ')'.",
        error_messages={
            "required": "Name: give your AI a name.",
            "max_length": "Name: at most 64 characters.",
        },  # fmt: skip
    )
    universe = forms.TypedChoiceField(coerce=int, help_text="Where it is rated and listed.")
    avatar = forms.ChoiceField(choices=AVATARS)
    kind = forms.ChoiceField(choices=AIPlayer.Kind.choices, widget=forms.RadioSelect)
    search_algorithm = forms.ChoiceField(
        label="Search", required=False,
        choices=[(k, v["label"]) for k, v in SEARCH_ALGORITHMS.items()],
    )  # fmt: skip
    learning_algorithm = forms.ChoiceField(label="Classifier", required=False, choices=[])

    def __init__(self, *args, user, ai: AIPlayer | None = None, read_only=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.ai = ai
        universes = universes_for(user)
        if ai is not None and ai.universe not in universes:
            universes.append(ai.universe)
        self.universes = {u.pk: u for u in universes}
        self.fields["universe"].choices = [(u.pk, u.name) for u in universes]
        self.learn_algorithms, traits = learning_catalogue()
        # the later releases' traits are shown disabled by the template (FUTURE_TRAITS)
        self.traits = [t for t in traits if t.get("enabled", True)]
        choices = [(k, v["label"]) for k, v in self.learn_algorithms.items()]
        self.fields["learning_algorithm"].choices = choices
        self.search_groups = self._param_fields("s", SEARCH_ALGORITHMS)
        self.learn_groups = self._param_fields("l", self.learn_algorithms)
        self.trait_fields = []
        for spec in self.traits:
            name = f"p_{spec['name']}"
            self.fields[name] = _number_field(name, spec)
            self.trait_fields.append(name)
        if not self.is_bound and not self.initial.get("kind"):
            self.initial["kind"] = AIPlayer.Kind.LEARNING if choices else AIPlayer.Kind.SEARCH
        if not choices:
            self.fields["kind"].help_text = "Learning AIs need the learning core on this server."
        fixed = ai is not None and ai.settings_fixed
        for name, field in self.fields.items():
            if read_only or (fixed and name not in ("name", "universe", "avatar")):
                field.disabled = True

    def _param_fields(self, prefix: str, catalogue: dict) -> dict[str, list[str]]:
        groups = {}
        for algorithm, spec in catalogue.items():
            groups[algorithm] = []
            for param in spec["params"]:
                name = f"{prefix}_{algorithm}_{param['name']}"
                self.fields[name] = _number_field(name, param)
                groups[algorithm].append(name)
        return groups

    @staticmethod
    def initial_from(ai_settings: dict) -> dict:
        """Form initial data from an AI's (or a copy's) settings."""
        data = {k: ai_settings[k] for k in ("name", "universe", "avatar", "kind")}
        algorithm = ai_settings["algorithm"]
        prefix = "s" if data["kind"] == AIPlayer.Kind.SEARCH else "l"
        data["search_algorithm" if prefix == "s" else "learning_algorithm"] = algorithm
        for key, value in (ai_settings.get("params") or {}).items():
            data[f"{prefix}_{algorithm}_{key}"] = value
        for key, value in (ai_settings.get("personality") or {}).items():
            data[f"p_{key}"] = value
        return data

    def bound_groups(self, groups: dict[str, list[str]]) -> list[tuple[str, str, list]]:
        catalogue = SEARCH_ALGORITHMS if groups is self.search_groups else self.learn_algorithms
        return [(key, catalogue[key]["label"], [self[n] for n in names])
                for key, names in groups.items()]  # fmt: skip

    def search_fieldsets(self):
        return self.bound_groups(self.search_groups)

    def learn_fieldsets(self):
        return self.bound_groups(self.learn_groups)

    def trait_bound(self):
        return [self[n] for n in self.trait_fields]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        algorithm_field = (
            "search_algorithm" if kind == AIPlayer.Kind.SEARCH else "learning_algorithm"
        )
        algorithm = data.get(algorithm_field) or ""
        groups = self.search_groups if kind == AIPlayer.Kind.SEARCH else self.learn_groups
        wanted = set(groups.get(algorithm, []))
        if kind == AIPlayer.Kind.LEARNING:
            wanted |= set(self.trait_fields)
        for name in list(self._errors):  # another algorithm's fields are not read
            if name.startswith(("s_", "l_", "p_")) and name not in wanted:
                del self._errors[name]
        if "name" in data and "name" not in self._errors:  # whatever else is wrong
            try:
                clean_name(data["name"], exclude_player=self.ai.player_id if self.ai else None)
            except FactoryError as exc:
                self.add_error("name", str(exc))
        if not kind or any(n in self._errors for n in wanted):
            return data
        if kind == AIPlayer.Kind.LEARNING and not self.learn_algorithms:
            self.add_error("kind", "Kind: learning AIs need the learning core on this server.")
            return data
        if not algorithm:
            self.add_error(algorithm_field, "Choose an algorithm.")
            return data
        prefix = f"{'s' if kind == AIPlayer.Kind.SEARCH else 'l'}_{algorithm}_"
        params = {n[len(prefix) :]: data[n] for n in groups[algorithm] if data.get(n) is not None}
        personality = {n[2:]: data[n] for n in self.trait_fields if data.get(n) is not None}
        if kind == AIPlayer.Kind.SEARCH:
            personality = {}
        try:
            data["settings"] = clean_settings(kind, algorithm, params, personality)
        except FactoryError as exc:
            self.add_error(self._field_named(str(exc), wanted) or algorithm_field, str(exc))
        data["universe_obj"] = self.universes.get(data.get("universe"))
        if data["universe_obj"] is None:
            self.add_error("universe", "Universe: choose one of yours.")
        return data

    def _field_named(self, message: str, names) -> str | None:
        """The field a service's message names ("Simulations: ...")."""
        for name in names:
            if message.lower().startswith(self.fields[name].label.lower() + ":"):
                return name
        return None
