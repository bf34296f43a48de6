"""URL converters: ``<id:pk>`` matches a database id the bounded parser accepts.

A URL with a longer or larger number matches no route (a 404), so no view is ever handed
an id the database cannot hold (SQLite refuses one with an OverflowError).
"""

from django.urls import register_converter

from variants.ids import parse_id


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = parse_id(value)
        if number is None:
            raise ValueError(value)  # Django reads this as "no match"
        return number

    def to_url(self, value) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
