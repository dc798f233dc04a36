"""Moving in from KeizerForClubs (keizer-variants.md §5): the tournament file converted to a
competition file (competitions.systems.keizer.kfc), imported through the importer everybody
uses (`rankings.imports`: its checks, history and recompute), then the check of §5.4 step 5:
every player's score and place, recomputed, against the file's stored `Keizer_SumPts` and
`rank`. KFC stores them at its last recalculation, so a difference may only mean a stale file:
it is reported, not refused."""

from dataclasses import dataclass
from dataclasses import replace as dc_replace

from django.db import transaction
from django.utils.translation import gettext as _

from competitions import interchange
from competitions.interchange import ImportResult
from competitions.models import Season
from competitions.systems.keizer.kfc import KfcFile, read_kfc
from rankings.engines import keizer as engine
from rankings.imports import import_file

from .standings import load_season, number

TOLERANCE = 0.005


def check(season: Season, kfc: KfcFile) -> list[str]:
    """The report's lines: one per player whose score or place differs (none: all equal)."""
    season_in, _rounds = load_season(season)
    listed = engine.compute_season(season_in).lists[-1]
    computed = {row.player: (number(row.score), place) for place, row in enumerate(listed.rows, 1)}
    lines = []
    for key, (stored_score, stored_rank) in kfc.stored.items():
        score, place = computed.get(key, (None, None))
        if score is not None and abs(score - stored_score) < TOLERANCE and place == stored_rank:
            continue
        lines.append(
            _(
                "%(name)s (%(id)s): score %(score)s, place %(place)s; the file has "
                "%(file_score)s, place %(file_place)s"
            )
            % {
                "name": kfc.names[key],
                "id": key,
                "score": "–" if score is None else round(score, 4),
                "place": place or "–",
                "file_score": round(stored_score, 4),
                "file_place": stored_rank,
            }
        )
    return lines


@dataclass
class KfcImport:
    """A KeizerForClubs file imported (or tried: `result.dry_run`): the import's result, the
    players checked, the differences found and what was mapped inexactly."""

    result: ImportResult
    checked: int
    differences: list[str]
    notes: list[str]

    @property
    def lines(self) -> list[str]:
        """The report after the import's own: what was mapped inexactly, then the check."""
        if not self.differences:
            return [
                *self.notes,
                _(
                    "Check: the score and place of all %(n)s players equal the ones the "
                    "KeizerForClubs file stores."
                )
                % {"n": self.checked},
            ]
        return [
            *self.notes,
            _(
                "Check: %(n)s of %(all)s players differ from the scores and places the "
                "KeizerForClubs file stores:"
            )
            % {"n": len(self.differences), "all": self.checked},
            *("  " + line for line in self.differences),
            _(
                "KeizerForClubs stores them when it last recalculated (pairing or printing "
                "lists): the file may be stale. Open it in KeizerForClubs, recalculate and "
                "compare again."
            ),
        ]


class _Rollback(Exception):
    pass


def import_kfc(
    raw: bytes, *, series: str, season: str, replace: bool = False, dry_run: bool = False
) -> KfcImport:
    """Import a KeizerForClubs tournament file as season `season` of `series`, then check it.
    A dry run imports and checks in a transaction it rolls back: nothing is stored."""
    kfc = read_kfc(raw, series=series, season=season)
    if not dry_run:
        result = import_file(kfc.document, replace=replace)
        return KfcImport(result, len(kfc.stored), check(result.season, kfc), kfc.notes)
    found: list[KfcImport] = []
    try:
        with transaction.atomic():
            result = interchange.import_file(kfc.document, replace=replace)
            found.append(
                KfcImport(
                    dc_replace(result, dry_run=True),
                    len(kfc.stored),
                    check(result.season, kfc),
                    kfc.notes,
                )
            )
            raise _Rollback
    except _Rollback:
        pass
    return found[0]
