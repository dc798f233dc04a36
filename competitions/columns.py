"""Table columns shared by every system's tables (django-tables2)."""

import django_tables2 as tables

from competitions.text import as_date, isolated, local_date


class LocalDateColumn(tables.Column):
    """A date as the reader's language writes it (competitions.text.DATE_FORMATS: "4 dec 2026"
    in Dutch, "4. des. 2026" in Norwegian, where django-tables2's DateColumn with a format
    such as "j M Y" writes "4 Dec 2026" in every language). Downloads get ISO dates."""

    def __init__(self, *args, kind: str = "date", **kwargs):
        self.kind = kind
        super().__init__(*args, **kwargs)

    def render(self, value):
        # On one line: a phone's narrow column broke "5 Jan 2025" into three.
        return local_date(value, self.kind).replace(" ", "\u00a0")

    def value(self, value):
        """A download keeps the date as a spreadsheet reads it in any language: a date cell in
        a spreadsheet, 2026-12-04 in a CSV."""
        return as_date(value)


class NameColumn(tables.Column):
    """A name (a player's, a club's, a tournament's, a group's): isolated on the page
    (competitions.text.isolated: a right-to-left name or a bidirectional control character
    changes nothing outside it), as typed in a download."""

    def render(self, value):
        return isolated(value)

    def value(self, value):
        return value
