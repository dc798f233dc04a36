"""Merging a duplicate player into the kept one, and undoing it (issue 46, item 7).

Generic over the systems: every row of the competitions app that refers to a player
(`Player._meta.related_objects`: seats, placements, group players, round entries, pool members,
challenge scores, imported totals, season entries) moves to the kept player. Rows of the apps
above (the stored standings) are derived: they go with the duplicate, and the recompute that
follows writes the kept player's.

Where a moved row would break one of its model's unique constraints (both players at one table,
in one round, group, tournament, pool or challenge, so also playing each other), the whole merge
is refused, naming each place, and nothing is stored. The season entries are the exception: both
on a season's list is what a typo at a table makes, so the duplicate's entry is removed there
(refused only when something of the system hangs on it, such as start points).

The duplicate is then deleted, and a `PlayerMerge` keeps what it was, the ids of the rows that
moved and the entries removed, so that staff can undo the merge from the admin: the duplicate is
put back with its id and exactly those rows move back (refused when any of them changed player or
is gone since). Every row written is written with its history, the note naming the merge.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import Count, UniqueConstraint
from django.db.models.deletion import Collector
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import (
    bulk_create_with_history,
    bulk_update_with_history,
    get_history_manager_for_model,
)

from .models import (
    Club,
    Group,
    Player,
    PlayerMerge,
    Round,
    Season,
    SeasonPlayer,
    Series,
    Tournament,
)
from .signals import bulk_write, results_changed
from .text import isolated_text

# Conflicts named in one refusal; the others are counted.
SHOWN_CONFLICTS = 10
# simple_history's history_change_reason is 100 characters.
NOTE_LENGTH = 100


def player_references() -> list[models.ForeignKey]:
    """The foreign keys to Player of the competitions app's own rows (results and entries),
    not their history rows nor the apps above's derived rows."""
    return [
        rel.field
        for rel in Player._meta.related_objects
        if rel.related_model._meta.app_label == "competitions"
        and not rel.related_model.__name__.startswith("Historical")
        and rel.related_model is not PlayerMerge
    ]


def season_path(model: type[models.Model], depth: int = 3) -> str | None:
    """The lookup from a row of `model` to its season ("round__season"), found through its
    foreign keys, nearest first (not through the player: a player has no season)."""
    paths: list[tuple[str, type[models.Model]]] = [("", model)]
    for _level in range(depth):
        following = []
        for prefix, current in paths:
            for f in current._meta.concrete_fields:
                if not f.is_relation or f.related_model in (Player, Series, Club):
                    continue
                path = f"{prefix}{f.name}"
                if f.related_model is Season:
                    return path
                following.append((f"{path}__", f.related_model))
        paths = following
    return None


def _place(value, field_: models.Field) -> str:
    """Where a unique constraint's value lies, in words: "table 3 of round 1 of Mechelen
    (2025-02-09)"."""
    if isinstance(value, Season):
        return _("season %(label)s") % {"label": isolated_text(value.label)}
    if isinstance(value, Tournament):
        if value.date:
            return f"{isolated_text(value.name)} ({value.date.isoformat()})"
        return isolated_text(value.name)
    if isinstance(value, Group):
        return _("group %(group)s of %(tournament)s") % {
            "group": isolated_text(value.name),
            "tournament": _place(value.tournament, field_),
        }
    if isinstance(value, Round):
        parent = value.group or value.tournament or value.season
        where = _place(parent, field_)
        if value.date and not value.tournament_id:
            where = f"{where} ({value.date.isoformat()})"
        return _("round %(number)s of %(where)s") % {"number": value.number, "where": where}
    if isinstance(value, models.Model):
        number = getattr(value, "number", None) or getattr(value, "board", None)
        what = value._meta.verbose_name
        name = f"{what} {number}" if number is not None else f"{what} {isolated_text(value)}"
        round_ = getattr(value, "round", None)
        if isinstance(round_, Round):
            return _("%(what)s of %(round)s") % {"what": name, "round": _place(round_, field_)}
        return name
    return f"{field_.verbose_name} {isolated_text(value)}"


def _unique_sets(model: type[models.Model], player_field: str) -> list[tuple[list[str], object]]:
    """The model's unique constraints with the player in them: (the other fields, condition)."""
    found = []
    for constraint in model._meta.constraints:
        if isinstance(constraint, UniqueConstraint) and player_field in constraint.fields:
            others = [name for name in constraint.fields if name != player_field]
            found.append((others, constraint.condition))
    for together in model._meta.unique_together:
        if player_field in together:
            found.append(([n for n in together if n != player_field], None))
    return found


def _conflicts(duplicate: Player, kept: Player) -> list[str]:
    """Where both players have a row that a unique constraint allows once per player."""
    found: list[str] = []
    seen: set[tuple[str, int]] = set()
    for fk in player_references():
        model = fk.model
        if model is SeasonPlayer:
            continue  # both on a season's list: see _entries
        for others, condition in _unique_sets(model, fk.name):
            rows = model._default_manager.all()
            if condition is not None:
                rows = rows.filter(condition)
            keys = [
                f"{name}_id" if model._meta.get_field(name).is_relation else name for name in others
            ]
            kept_values = set(rows.filter(**{fk.name: kept}).values_list(*keys))
            for row in rows.filter(**{fk.name: duplicate}).order_by("pk"):
                values = tuple(getattr(row, key) for key in keys)
                if values not in kept_values or (model._meta.label_lower, row.pk) in seen:
                    continue
                seen.add((model._meta.label_lower, row.pk))
                where = ", ".join(
                    _place(getattr(row, name), model._meta.get_field(name)) for name in others
                )
                found.append(
                    _("%(kept)s and %(duplicate)s are both in %(where)s (%(kind)s).")
                    % {
                        "kept": isolated_text(kept.name),
                        "duplicate": isolated_text(duplicate.name),
                        "where": where,
                        "kind": model._meta.verbose_name_plural,
                    }
                )
    return found


def _entries(duplicate: Player, kept: Player) -> tuple[list[SeasonPlayer], list[str]]:
    """The duplicate's season entries in seasons where the kept player has one (removed by the
    merge), and the refusals for those that something hangs on (start points, a start Elo)."""
    kept_seasons = set(kept.entries.values_list("season_id", flat=True))
    doubled = list(duplicate.entries.filter(season_id__in=kept_seasons).select_related("season"))
    refusals = []
    for entry in doubled:
        collector = Collector(using="default")
        collector.collect([entry])
        kinds = sorted(
            {
                str(model._meta.verbose_name_plural)
                for model, rows in collector.data.items()
                if rows
                and model is not SeasonPlayer
                and not model.__name__.startswith("Historical")
            }
        )
        if kinds:
            refusals.append(
                _(
                    "%(duplicate)s has %(kinds)s of their own in season %(season)s, where "
                    "%(kept)s is on the list too; remove them first."
                )
                % {
                    "duplicate": isolated_text(duplicate.name),
                    "kinds": ", ".join(kinds),
                    "season": isolated_text(entry.season.label),
                    "kept": isolated_text(kept.name),
                }
            )
    return doubled, refusals


@dataclass
class MergePreview:
    """What merging `duplicate` into `kept` would do: the rows that would move, by season and
    kind, the season entries that would be removed and why it would be refused."""

    duplicate: Player
    kept: Player
    moves: list[tuple[str, str, int]] = field(default_factory=list)  # (season, kind, count)
    removed_entries: list[str] = field(default_factory=list)  # season labels
    conflicts: list[str] = field(default_factory=list)

    @property
    def refused(self) -> bool:
        return bool(self.conflicts)


def _refusals(duplicate: Player, kept: Player) -> tuple[list[SeasonPlayer], list[str]]:
    if duplicate.pk == kept.pk:
        return [], [_("A player cannot be merged into themselves.")]
    if duplicate.series_id != kept.series_id:
        return [], [_("Both players must belong to the same series.")]
    doubled, refusals = _entries(duplicate, kept)
    return doubled, _conflicts(duplicate, kept) + refusals


def player_merge_preview(*, duplicate: Player, kept: Player) -> MergePreview:
    """What `player_merge` would move and whether it would be refused (reads only)."""
    preview = MergePreview(duplicate=duplicate, kept=kept)
    doubled, preview.conflicts = _refusals(duplicate, kept)
    if preview.conflicts:
        return preview
    labels = dict(Season.objects.filter(series_id=kept.series_id).values_list("pk", "label"))
    doubled_ids = {entry.pk for entry in doubled}
    counts: dict[tuple[str, str], int] = defaultdict(int)
    for fk in player_references():
        path = season_path(fk.model)
        rows = fk.model._default_manager.filter(**{fk.name: duplicate})
        if fk.model is SeasonPlayer:
            rows = rows.exclude(pk__in=doubled_ids)
        if path is None:
            counts[("", str(fk.model._meta.verbose_name_plural))] += rows.count()
            continue
        for season_id, n in rows.values_list(path).annotate(n=Count("pk")).order_by():
            counts[(labels.get(season_id, ""), str(fk.model._meta.verbose_name_plural))] += n
    preview.moves = sorted(
        ((label, kind, n) for (label, kind), n in counts.items() if n),
        key=lambda move: (move[0], move[1]),
        reverse=False,
    )
    preview.removed_entries = sorted(entry.season.label for entry in doubled)
    return preview


def _refuse(conflicts: list[str]) -> ValidationError:
    shown = conflicts[:SHOWN_CONFLICTS]
    more = len(conflicts) - len(shown)
    lines = [_("Merge refused; nothing was changed."), *shown]
    if more:
        lines.append(_("… and %(count)s more.") % {"count": more})
    return ValidationError(lines)


def _locked(*players: Player) -> list[Player]:
    """The players' rows, locked in id order (two merges at once wait for each other)."""
    ids = [p.pk for p in players]
    found = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    if len(found) != len(set(ids)):
        raise ValidationError(
            _("One of the players was deleted meanwhile; nothing was changed. Reload the page.")
        )
    return [found[pk] for pk in ids]


def _note(text: str) -> str:
    return text[:NOTE_LENGTH]


def _seasons(model: type[models.Model], ids: Iterable[int]) -> set[int]:
    path = season_path(model)
    if path is None:
        return set()
    return set(model._default_manager.filter(pk__in=list(ids)).values_list(path, flat=True))


def player_merge(*, duplicate: Player, kept: Player, user=None) -> PlayerMerge:
    """Merge the duplicate into the kept player (same series): one transaction. Every row of
    the duplicate moves to the kept player, the duplicate is deleted, and the seasons they
    touch are recomputed (`results_changed`). Refused, with nothing stored, where both players
    have a row that may be there once per player (ValidationError naming each place), and
    where such a row was written by someone else between the check and the move (the players
    are locked, their results are not): the database's constraint refuses it, and the merge
    says so instead of failing."""
    try:
        return _merge(duplicate, kept, user)
    except IntegrityError as exc:
        raise ValidationError(
            _(
                "Somebody changed these players' results meanwhile; nothing was changed. "
                "Reload the page."
            )
        ) from exc


def _merge(duplicate: Player, kept: Player, user) -> PlayerMerge:
    with transaction.atomic(), bulk_write():
        duplicate, kept = _locked(duplicate, kept)
        doubled, conflicts = _refusals(duplicate, kept)
        if conflicts:
            raise _refuse(conflicts)
        merge = PlayerMerge.objects.create(
            series_id=kept.series_id,
            kept=kept,
            kept_name=kept.name,
            duplicate_id=duplicate.pk,
            duplicate_key=duplicate.key,
            duplicate_name=duplicate.name,
            duplicate_club_id=duplicate.club_id,
            duplicate_born=duplicate.born,
            merged_by=user if user is not None and user.is_authenticated else None,
        )
        history_user = merge.merged_by
        note = _note(
            f"Merge #{merge.pk}: {duplicate.name} ({duplicate.key}) into {kept.name} ({kept.key})"
        )
        season_ids: set[int] = set()
        removed = []
        for entry in doubled:
            removed.append(
                {
                    "id": entry.pk,
                    "season_id": entry.season_id,
                    "position": entry.position,
                    "club_id": entry.club_id,
                }
            )
            season_ids.add(entry.season_id)
            entry._history_user = history_user
            entry._change_reason = note
            entry.delete()
        moved: dict[str, list[int]] = {}
        for fk in player_references():
            rows = list(fk.model._default_manager.filter(**{fk.name: duplicate}).order_by("pk"))
            if not rows:
                continue
            for row in rows:
                setattr(row, fk.name, kept)
            bulk_update_with_history(
                rows,
                fk.model,
                [fk.name],
                default_user=history_user,
                default_change_reason=note,
            )
            ids = [row.pk for row in rows]
            moved[fk.model._meta.label_lower] = ids
            season_ids |= _seasons(fk.model, ids)
        merge.moved, merge.removed_entries = moved, removed
        merge.season_ids = sorted(season_ids)
        merge.save(update_fields=["moved", "removed_entries", "season_ids"])
        duplicate._history_user = history_user
        duplicate._change_reason = note
        duplicate.delete()
        get_history_manager_for_model(Player).bulk_history_create(
            [kept], update=True, default_user=history_user, default_change_reason=note
        )
        if season_ids:
            results_changed.send(sender=Season, season_ids=season_ids)
    return merge


def player_merge_undo(*, merge: PlayerMerge, user=None) -> Player:
    """Undo a merge: the duplicate comes back (same id, key, name, club), exactly the rows
    that moved go back to it and its removed season entries are put back; one transaction.
    Refused, with nothing changed, when the merge is undone already, the kept player is gone,
    the duplicate's id was taken again, or any moved row is gone or changed player since."""
    with transaction.atomic(), bulk_write():
        merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
        if merge.undone_at is not None:
            raise ValidationError(_("This merge was undone already."))
        kept = Player.objects.select_for_update().filter(pk=merge.kept_id).first()
        if kept is None:
            raise ValidationError(
                _("%(kept)s was merged into another player or deleted since; undo that first.")
                % {"kept": isolated_text(merge.kept_name)}
            )
        if Player.objects.filter(series_id=merge.series_id, key=merge.duplicate_key).exists():
            raise ValidationError(
                _("The series has a player with the id %(key)s again; the merge cannot be undone.")
                % {"key": isolated_text(merge.duplicate_key)}
            )
        by_model = []
        problems = []
        for label, ids in merge.moved.items():
            model = apps.get_model(label)
            fk = next(f for f in player_references() if f.model is model)
            rows = list(model._default_manager.filter(pk__in=ids, **{fk.name: kept}))
            if len(rows) != len(ids):
                problems.append(
                    _("%(count)s of the %(kind)s that moved are gone or changed player since.")
                    % {"count": len(ids) - len(rows), "kind": model._meta.verbose_name_plural}
                )
            by_model.append((model, fk, rows))
        seasons = set(Season.objects.filter(pk__in=merge.season_ids).values_list("pk", flat=True))
        if problems:
            raise ValidationError(
                [_("The results changed since the merge; nothing was changed."), *problems]
            )
        user = user if user is not None and user.is_authenticated else None
        note = _note(f"Undo of merge #{merge.pk}: {merge.duplicate_name} ({merge.duplicate_key})")
        club_id = merge.duplicate_club_id
        if club_id is not None and not Club.objects.filter(pk=club_id).exists():
            club_id = None
        duplicate = Player(
            pk=merge.duplicate_id,
            series_id=merge.series_id,
            key=merge.duplicate_key,
            name=merge.duplicate_name,
            club_id=club_id,
            born=merge.duplicate_born,
        )
        duplicate._history_user = user
        duplicate._change_reason = note
        duplicate.save(force_insert=True)
        clubs = set(Club.objects.filter(series_id=merge.series_id).values_list("pk", flat=True))
        entries = [
            SeasonPlayer(
                pk=entry["id"],
                season_id=entry["season_id"],
                player=duplicate,
                position=entry["position"],
                club_id=entry["club_id"] if entry["club_id"] in clubs else None,
            )
            for entry in merge.removed_entries
            if entry["season_id"] in seasons
        ]
        if entries:
            bulk_create_with_history(
                entries, SeasonPlayer, default_user=user, default_change_reason=note
            )
        for model, fk, rows in by_model:
            for row in rows:
                setattr(row, fk.name, duplicate)
            bulk_update_with_history(
                rows, model, [fk.name], default_user=user, default_change_reason=note
            )
        get_history_manager_for_model(Player).bulk_history_create(
            [kept], update=True, default_user=user, default_change_reason=note
        )
        merge.undone_at, merge.undone_by = timezone.now(), user
        merge.save(update_fields=["undone_at", "undone_by"])
        if seasons:
            results_changed.send(sender=Season, season_ids=seasons)
    return duplicate
