"""Writing the rows of a competition file: in bulk, with change history, and, when an import
replaces a season, only what differs from what is stored.

A replacing import matches each new row to the stored row with the same natural key (a
tournament by its id, a table by tournament, round and number, ...): a stored row whose fields
differ is updated, a new key is created, and a stored row the file no longer has is deleted. So
re-importing the same file writes nothing, a corrected file writes only its corrections, the
change history records only real changes, and the standings recompute only when something
changed. The rows changed are the import's report.

Usage in a system's file section (`read(data, ctx)`), parents before children:

    tournaments = ctx.sync.rows(Tournament, new_tournaments,
                                existing=Tournament.objects.filter(season=ctx.season),
                                key=lambda t: t.key, fields=["name", "date"])
    # every new instance now has the pk of its row: children can point at it

`ctx.sync.finish()` (called by the importer) deletes what the file no longer has, children
first.
"""

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import router
from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

BATCH = 2000


@dataclass
class ModelChanges:
    """What a replacing import changed of one model, by the rows' labels."""

    name: str
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def none(self) -> bool:
        return not (self.added or self.changed or self.removed)


def delete_with_history(model: type[Model], rows: list[Model]) -> None:
    """Delete rows in bulk, recording each deletion in the model's change history when it has
    one. No signals: the caller deletes children first and reports the change itself."""
    if not rows:
        return
    history = getattr(model, "history", None)
    if history is not None:
        historical = history.model
        now = timezone.now()
        user = historical.get_default_history_user(rows[0])
        historical.objects.bulk_create(
            (
                historical(
                    history_date=now,
                    history_user=user,
                    history_change_reason=_("replaced by an import"),
                    history_type="-",
                    **{f.attname: getattr(row, f.attname) for f in historical.tracked_fields},
                )
                for row in rows
            ),
            batch_size=BATCH,
        )
    pks = [row.pk for row in rows]
    alias = router.db_for_write(model)
    for start in range(0, len(pks), BATCH):
        # A raw delete: the children are gone already, and no per-row signal is wanted.
        model._base_manager.using(alias).filter(pk__in=pks[start : start + BATCH])._raw_delete(
            alias
        )


def create_with_history(model: type[Model], rows: list[Model]) -> list[Model]:
    """bulk_create, with a change history row per row when the model has a history."""
    if not rows:
        return rows
    if getattr(model, "history", None) is not None:
        return bulk_create_with_history(rows, model, batch_size=BATCH)
    return model.objects.bulk_create(rows, batch_size=BATCH)


class Sync:
    """The writer of one import: creates rows in bulk, or, when `replacing`, brings the stored
    rows in line with the file's (see the module docstring)."""

    def __init__(self, *, replacing: bool) -> None:
        self.replacing = replacing
        self.changes: list[ModelChanges] = []
        self._deletes: list[tuple[type[Model], list[Model]]] = []

    @property
    def changed(self) -> bool:
        return any(not c.none for c in self.changes)

    @property
    def none(self) -> bool:
        return not self.changed

    def rows(
        self,
        model: type[Model],
        new: list[Model],
        *,
        existing: QuerySet | Iterable[Model] | None,
        key: Callable[[Model], Hashable],
        fields: list[str],
        label: Callable[[Model], str] | None = None,
        delete: bool = True,
        name: str | None = None,
    ) -> list[Model]:
        """Store `new` (unsaved instances of `model`) and give each its row's pk.

        `existing`: the stored rows the file's rows replace (None: there are none); matched by
        `key`, compared on `fields`. `delete=False` keeps stored rows the file does not list
        (players of other seasons). `label` names a row in the report (default: its key)."""
        label = label or (lambda row: " ".join(str(part) for part in _parts(key(row))))
        report = ModelChanges(name=name or str(model._meta.verbose_name_plural))
        self.changes.append(report)
        if existing is None:
            create_with_history(model, new)
            if self.replacing:
                report.added = [label(row) for row in new]
            return new
        stored: dict[Hashable, Model] = {key(row): row for row in existing}
        creates, updates = [], []
        seen = set()
        for row in new:
            k = key(row)
            seen.add(k)
            old = stored.get(k)
            if old is None:
                creates.append(row)
                continue
            differs = [f for f in fields if getattr(old, f) != getattr(row, f)]
            if differs:
                for f in fields:
                    setattr(old, f, getattr(row, f))
                updates.append(old)
            row.pk = old.pk
            row._state.adding = False
            row._state.db = old._state.db
        create_with_history(model, creates)
        if updates:
            bulk_update_with_history(updates, model, fields, batch_size=BATCH)
        removed = [row for k, row in stored.items() if k not in seen] if delete else []
        if removed:
            self._deletes.append((model, removed))
        report.added = [label(row) for row in creates]
        report.changed = [label(row) for row in updates]
        report.removed = [label(row) for row in removed]
        return new

    def finish(self) -> None:
        """Delete what the file no longer has, children before parents."""
        for model, rows in reversed(self._deletes):
            delete_with_history(model, rows)
        self._deletes.clear()

    def summary(self, examples: int = 5) -> list[str]:
        """The report of a replacing import: per kind of row, what was added, changed and
        removed, with examples."""
        lines = []
        for report in self.changes:
            if report.none:
                continue
            lines.append(
                _("%(unit)s: %(added)s added, %(changed)s changed, %(removed)s removed.")
                % {
                    "unit": report.name,
                    "added": len(report.added),
                    "changed": len(report.changed),
                    "removed": len(report.removed),
                }
            )
            for what, keys in (
                (_("added"), report.added),
                (_("changed"), report.changed),
                (_("removed"), report.removed),
            ):
                for key in keys[:examples]:
                    lines.append(f"  {what}: {key}")
                if len(keys) > examples:
                    lines.append("  " + _("… and %(n)s more") % {"n": len(keys) - examples})
        return lines


def _parts(value: Any) -> tuple:
    return value if isinstance(value, tuple) else (value,)
