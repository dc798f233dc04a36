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


@dataclass(frozen=True)
class Compared:
    """A player's score and place recomputed here (None: not on the list) against the ones
    the file stores."""

    key: str
    name: str
    score: float | None
    place: int | None
    file_score: float
    file_place: int

    @property
    def equal(self) -> bool:
        return (
            self.score is not None
            and abs(self.score - self.file_score) < TOLERANCE
            and self.place == self.file_place
        )

    @property
    def line(self) -> str:
        return _(
            "%(name)s (%(id)s): score %(score)s, place %(place)s; the file has "
            "%(file_score)s, place %(file_place)s"
        ) % {
            "name": self.name,
            "id": self.key,
            "score": "–" if self.score is None else round(self.score, 4),
            "place": self.place or "–",
            "file_score": round(self.file_score, 4),
            "file_place": self.file_place,
        }


def compare(season: Season, kfc: KfcFile) -> list[Compared]:
    """Every player the file stores numbers for (the withdrawn have none), in the file's
    order: the score after the last counted round and the place, recomputed, beside the
    file's `Keizer_SumPts` and `rank`."""
    season_in, _rounds = load_season(season)
    listed = engine.compute_season(season_in).lists[-1]
    computed = {row.player: (number(row.score), place) for place, row in enumerate(listed.rows, 1)}
    return [
        Compared(key, kfc.names[key], *computed.get(key, (None, None)), stored_score, stored_rank)
        for key, (stored_score, stored_rank) in kfc.stored.items()
    ]


def check(season: Season, kfc: KfcFile) -> list[str]:
    """The report's lines: one per player whose score or place differs (none: all equal)."""
    return [found.line for found in compare(season, kfc) if not found.equal]


@dataclass
class KfcImport:
    """A KeizerForClubs file imported (or tried: `result.dry_run`): the import's result, every
    player's check (`compared`) and what was mapped inexactly; `document` is the competition
    file the tournament file became (what was, or would be, stored)."""

    result: ImportResult
    compared: list[Compared]
    notes: list[str]
    document: dict

    @property
    def checked(self) -> int:
        return len(self.compared)

    @property
    def differences(self) -> list[str]:
        return [found.line for found in self.compared if not found.equal]

    @property
    def summary(self) -> str:
        """The check in one sentence: all equal, or how many differ."""
        if not self.differences:
            return _(
                "Check: the score and place of all %(n)s players equal the ones the "
                "KeizerForClubs file stores."
            ) % {"n": self.checked}
        return _(
            "Check: %(n)s of %(all)s players differ from the scores and places the "
            "KeizerForClubs file stores:"
        ) % {"n": len(self.differences), "all": self.checked}

    @property
    def advice(self) -> str:
        """What a difference may mean (shown after the differences)."""
        return _(
            "KeizerForClubs stores them when it last recalculated (pairing or printing "
            "lists): the file may be stale. Open it in KeizerForClubs, recalculate and "
            "compare again."
        )

    @property
    def lines(self) -> list[str]:
        """The report after the import's own: what was mapped inexactly, then the check."""
        if not self.differences:
            return [*self.notes, self.summary]
        return [
            *self.notes,
            self.summary,
            *("  " + line for line in self.differences),
            self.advice,
        ]


class _Rollback(Exception):
    pass


def import_kfc(
    raw: bytes,
    *,
    series: str,
    season: str,
    replace: bool = False,
    dry_run: bool = False,
    next_round: bool = False,
) -> KfcImport:
    """Import a KeizerForClubs tournament file as season `season` of `series` (one
    transaction, then the recompute: `rankings.imports`), then check it. A dry run imports and
    checks in a transaction it rolls back: nothing is stored. `next_round`: §5.4 item 3."""
    kfc = read_kfc(raw, series=series, season=season, next_round=next_round)
    if not dry_run:
        result = import_file(kfc.document, replace=replace)
        return KfcImport(result, compare(result.season, kfc), kfc.notes, kfc.document)
    found: list[KfcImport] = []
    try:
        with transaction.atomic():
            result = interchange.import_file(kfc.document, replace=replace)
            found.append(
                KfcImport(
                    dc_replace(result, dry_run=True),
                    compare(result.season, kfc),
                    kfc.notes,
                    kfc.document,
                )
            )
            raise _Rollback
    except _Rollback:
        pass
    return found[0]
