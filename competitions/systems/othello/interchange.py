"""The othello-gp section of the competition file (interchange.md).

```json
"tournaments": [ {"id": "t1", "name": "Stockholm Open", "date": "2025-03-01",
  "sm": true,                                   // optional federation flags (default false)
  "participants": [ {"player": "p1", "place": 1, "country": "SE", "rating": {"nordic": 1850}} ] } ]
```
Places are 1..n, each once (rules.md §2); `rating` is required, `{}` is a debutant.
"""

import re
from typing import Any

from django.db.models import F, Q
from django.utils.translation import gettext as _

from competitions.interchange import (
    A_LIST,
    AN_OBJECT,
    TRUE_OR_FALSE,
    FileError,
    ReadContext,
    date_of,
    expect,
    field_of,
    join,
    not_reserved,
    season_players,
    text,
    whole,
)
from competitions.models import Season, Tournament

from .models import Placement
from .ratings import RatingEntry, RatingError, entry_from_json, entry_to_json
from .settings import (
    COUNTRY_RE,
    PARTICIPANTS_MAX,
    TIEBREAK_DATA,
    TOURNAMENT_OPTIONS,
    tournament_flags,
)

# A tournament id is part of its page addresses (tournaments/<id>/).
TOURNAMENT_ID_RE = re.compile(r"^(?!\.+$)[\w.-]+$")


def _flags(raw: dict, path: str, sm_path: str | None) -> dict:
    options = {}
    for name in ("sm", "egp"):
        value = field_of(raw, name, path, bool, TRUE_OR_FALSE, required=False, default=False)
        if value:
            options[name] = True
    for key, message in TOURNAMENT_OPTIONS.validate(options):
        raise FileError(join(path, key), message)
    if options.get("sm") and sm_path is not None:
        raise FileError(
            join(path, "sm"),
            _("a season has one Swedish championship; %(other)s is the SM already")
            % {"other": sm_path},
        )
    return options


def read_participant(
    raw: Any, path: str, ctx: ReadContext, n: int, places: dict[int, str], seen: dict[str, str]
) -> Placement:
    expect(raw, dict, path, AN_OBJECT)
    player = ctx.player(raw.get("player"), join(path, "player"))
    if player.key in seen:
        raise FileError(
            join(path, "player"),
            _("%(player)s is listed twice in this tournament (also at %(other)s)")
            % {"player": player.key, "other": seen[player.key]},
        )
    seen[player.key] = path
    place = whole(raw, "place", path, minimum=1)
    if place > n:
        raise FileError(
            join(path, "place"),
            _("place %(place)s in a tournament of %(n)s participants (places are 1 to %(n)s)")
            % {"place": place, "n": n},
        )
    if place in places:
        raise FileError(
            join(path, "place"),
            _("place %(place)s appears twice (also at %(other)s)")
            % {"place": place, "other": places[place]},
        )
    places[place] = path
    country = text(raw, "country", path, max_length=2)
    if not COUNTRY_RE.match(country):
        raise FileError(
            join(path, "country"),
            _("a country is two capital letters, e.g. SE; got %(value)r") % {"value": country},
        )
    if "rating" not in raw:
        raise FileError(join(path, "rating"), _("missing (write {} for a debutant)"))
    try:
        entry = entry_from_json(raw["rating"])
    except RatingError as exc:
        where = join(path, "rating")
        raise FileError(join(where, exc.field) if exc.field else where, exc.message) from None
    return Placement(
        player=player,
        place=place,
        country=country,
        nordic=entry.nordic,
        ffo=entry.ffo,
        provisional=entry.provisional,
        uncertainty=entry.uncertainty,
    )


# A replacing import writes only what differs (competitions.sync).
SYNC = True

# Stored places that change are moved out of the way (place + this) before the file's are
# written, so a replacing import that swaps two places never meets the (tournament, place)
# unique constraint halfway (the standings form does the same).
PLACE_SHIFT = 10_000

PLACEMENT_FIELDS = ["place", "country", "nordic", "ffo", "provisional", "uncertainty"]


def read(data: dict, ctx: ReadContext) -> None:
    season = ctx.season
    # chess-othello-options.md §3.3: the tie-break data names players of the file.
    for player in (season.settings or {}).get(TIEBREAK_DATA) or {}:
        ctx.player(player, f"settings.{TIEBREAK_DATA}.{player}")
    tournaments = field_of(data, "tournaments", "", list, A_LIST, required=False, default=[])
    keys: set[str] = set()
    sm_path = None
    new_tournaments: list[Tournament] = []
    placements: list[tuple[Tournament, Placement]] = []
    for i, raw in enumerate(tournaments):
        path = f"tournaments[{i}]"
        expect(raw, dict, path, AN_OBJECT)
        key = text(raw, "id", path, max_length=64)
        if not TOURNAMENT_ID_RE.match(key):
            raise FileError(
                join(path, "id"),
                _(
                    "a tournament id may hold only letters, digits, “-”, “_” and “.” (it is "
                    "part of the page addresses), got %(id)r"
                )
                % {"id": key},
            )
        not_reserved(key, join(path, "id"))
        if key in keys:
            raise FileError(join(path, "id"), _("duplicate tournament id %(id)r") % {"id": key})
        keys.add(key)
        options = _flags(raw, path, sm_path)
        if options.get("sm"):
            sm_path = path
        participants = field_of(raw, "participants", path, list, A_LIST, required=False, default=[])
        if len(participants) > PARTICIPANTS_MAX:
            raise FileError(
                join(path, "participants"),
                _("at most %(n)s participants") % {"n": PARTICIPANTS_MAX},
            )
        tournament = Tournament(
            season=season,
            key=key,
            name=text(raw, "name", path),
            date=date_of(raw, "date", path),
            options=options,
        )
        new_tournaments.append(tournament)
        places: dict[int, str] = {}
        seen: dict[str, str] = {}
        for j, participant in enumerate(participants):
            placement = read_participant(
                participant,
                join(join(path, "participants"), j),
                ctx,
                len(participants),
                places,
                seen,
            )
            placements.append((tournament, placement))
    _store(ctx, new_tournaments, placements)


def _store(ctx: ReadContext, tournaments: list[Tournament], placements: list) -> None:
    """Write the file's tournaments and placements in bulk; when the import replaces a stored
    season, only what differs."""
    season = ctx.season
    replacing = ctx.replacing
    ctx.sync.rows(
        Tournament,
        tournaments,
        existing=Tournament.objects.filter(season=season) if replacing else None,
        key=lambda t: t.key,
        fields=["name", "date", "options"],
    )
    new = []
    for tournament, placement in placements:
        placement.tournament = tournament  # now with its row's pk
        new.append(placement)
    existing = None
    if replacing:
        existing = list(Placement.objects.filter(tournament__season=season))
        wanted = {(p.tournament_id, p.player_id): p.place for p in new}
        moving = [p.pk for p in existing if wanted.get((p.tournament_id, p.player_id)) != p.place]
        if moving:
            Placement.objects.filter(pk__in=moving).update(place=F("place") + PLACE_SHIFT)
    ctx.sync.rows(
        Placement,
        new,
        existing=existing,
        key=lambda p: (p.tournament_id, p.player_id),
        fields=PLACEMENT_FIELDS,
        label=lambda p: f"{p.tournament.key} {p.place}",
    )


def participant_json(placement: Placement) -> dict:
    return {
        "player": placement.player.key,
        "place": placement.place,
        "country": placement.country,
        "rating": entry_to_json(RatingEntry.of(placement)),
    }


def write(season: Season) -> dict:
    placements = (
        Placement.objects.filter(tournament__season=season)
        .select_related("player")
        .order_by("tournament_id", "place")
    )
    by_tournament: dict[int, list[dict]] = {}
    for placement in placements:
        by_tournament.setdefault(placement.tournament_id, []).append(participant_json(placement))
    tournaments = []
    for t in season.tournaments.all():
        sm, egp = tournament_flags(t.options)
        entry: dict[str, Any] = {
            "id": t.key,
            "name": t.name,
            "date": t.date.isoformat() if t.date else None,
        }
        if sm:
            entry["sm"] = True
        if egp:
            entry["egp"] = True
        entry["participants"] = by_tournament.get(t.pk, [])
        tournaments.append(entry)
    return {
        "players": season_players(season, Q(placements__tournament__season=season)),
        "tournaments": tournaments,
    }
