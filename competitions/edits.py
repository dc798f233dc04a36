"""The write contract of the manager pages (architecture.md "One write per action").

A page that saves many results at once (an evening's boards, a round's games, a pool's IMPs)
hands its service one `Edit` per row: the row's key, the value the form showed and the value
the manager sent back. The service writes only the rows the manager changed, in one
transaction, and sends one scoped `results_changed`, so one recompute follows. A row sent back
as it was shown stays as it is stored, whatever happened to it meanwhile.

The form sends what it showed back in a hidden copy of each field, under Django's name for it
(`initial-<name>`, `BoundField.html_initial_name`); `ShownForm` reads it.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django import forms

K = TypeVar("K")
V = TypeVar("V")


class _NotShown:
    def __repr__(self) -> str:
        return "NOT_SHOWN"


# What a writer that showed nothing (a file, a script, the quick entry of one board) "showed".
NOT_SHOWN: Any = _NotShown()


@dataclass(frozen=True)
class Edit(Generic[K, V]):
    """One row of a manager's form: what it is, what the form showed, what was sent back."""

    key: K
    shown: V
    new: V

    @classmethod
    def sent(cls, key: K, new: V) -> "Edit[K, V]":
        """A row sent without a form: written wherever it differs from the stored one."""
        return cls(key, NOT_SHOWN, new)

    @property
    def changed(self) -> bool:
        return self.shown is NOT_SHOWN or self.new != self.shown


def changed(edits: Iterable[Edit[K, V]]) -> list[Edit[K, V]]:
    """The rows the manager changed."""
    return [edit for edit in edits if edit.changed]


class ShownBoundField(forms.BoundField):
    @property
    def shown(self) -> str:
        """What the form showed in this field, as text: the hidden copy sent back with the form,
        or (the form shown for the first time, or a post without the copy) its initial value."""
        if self.form.is_bound:
            sent = self.form.data.get(self.html_initial_name)
            if sent is not None:
                return sent
        value = self.initial
        return "" if value is None else str(value)


class ShownForm(forms.Form):
    """A form of many rows whose fields know what it showed (`form[name].shown`). Its template
    writes each field's copy: `<input type="hidden" name="{{ field.html_initial_name }}"
    value="{{ field.shown }}">`."""

    bound_field_class = ShownBoundField
