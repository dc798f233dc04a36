"""The write contract of the manager pages (architecture.md "One write per action").

A page that saves many results at once (an evening's boards, a round's games, a pool's IMPs)
hands its service one `Edit` per row: the row's key, the value the form showed and the value
the manager sent back. The service writes only the rows the manager changed, in one
transaction, and sends one scoped `results_changed`, so one recompute follows. A row sent back
as it was shown stays as it is stored, whatever happened to it meanwhile.

The form sends what it showed back in a hidden copy of each field, under Django's name for it
(`initial-<name>`, `BoundField.html_initial_name`); `ShownForm` reads it.

A row someone else changed since the form was opened is not overwritten (`refuse_stale`): inside
its transaction the service locks the rows (select_for_update, or a parent row that every save
of them locks first), then compares each row the manager changed with what is stored now. When
the stored value is neither what the form showed nor what was sent, the row is stale, and the
WHOLE save is refused: nothing is stored and nothing recomputed, and the form error names each
stale row ("Board 2: changed by Anna at 21:14 — reload", from the row's history records, else
"changed by someone else"); the page shows the form again with what the manager typed. A row sent
as it was shown is never written, so it is never stale. Two saves at the same moment wait for
each other on the lock: the first wins, the second finds the first's value and is refused.
Writers without a form (`Edit.sent`: a file, a script) are not checked.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

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


def stale(
    edits: Iterable[Edit[K, V]], stored: Mapping[K, V] | Callable[[K], V]
) -> list[Edit[K, V]]:
    """The rows the manager changed whose stored value is now neither what the form showed nor
    what was sent: someone else changed them since the form was opened. `stored` gives a row's
    value as stored now, in the form's terms (read with the rows locked)."""
    value = stored.get if isinstance(stored, Mapping) else stored
    found = []
    for edit in edits:
        if edit.shown is NOT_SHOWN or edit.new == edit.shown:
            continue
        now = value(edit.key)
        if now != edit.shown and now != edit.new:
            found.append(edit)
    return found


def changed_by(records: Iterable) -> str:
    """ "changed by X at T", from the newest of a row's history records (simple_history)."""
    newest = max(records, key=lambda r: r.history_date, default=None)
    if newest is None:
        return _("changed by someone else")
    user = getattr(newest, "history_user", None)
    return _("changed by %(user)s at %(time)s") % {
        "user": user.get_username() if user is not None else _("someone else"),
        "time": timezone.localtime(newest.history_date).strftime("%H:%M"),
    }


def refuse_stale(
    edits: Iterable[Edit[K, V]],
    stored: Mapping[K, V] | Callable[[K], V],
    *,
    label: Callable[[K], str],
    records: Callable[[K], Iterable] | None = None,
) -> None:
    """Refuse the whole save when a row the manager changed is stale (`stale`), naming each such
    row (`label`) and who changed it when (`records`: the row's history records). Call it inside
    the service's transaction, after locking the rows and before writing any."""
    found = stale(edits, stored)
    if not found:
        return
    raise ValidationError(
        [
            ValidationError(
                _(
                    "Nothing was saved: since this page was opened, someone else changed what "
                    "you changed."
                ),
                code="stale",
            ),
            *(
                ValidationError(
                    _("%(row)s: %(changed)s — reload")
                    % {
                        "row": label(edit.key),
                        "changed": changed_by(records(edit.key) if records else ()),
                    },
                    code="stale",
                )
                for edit in found
            ),
        ]
    )


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
