"""The Othello Grand Prix at federation scale: a season of 30 tournaments with fields of 20 to
80 players out of a pool of 400 (Swedish and foreign), every kind of rating entry."""

import random
from decimal import Decimal

from common import bulk_common, shared_manage_pages, shared_pages
from django.db import transaction

from competitions.models import Tournament
from competitions.systems.othello.models import Placement
from rankings.urls_helpers import season_url

NAME = "othello"

CITIES = ["Stockholm", "Göteborg", "Malmö", "Uppsala", "Västerås", "Örebro", "Linköping"]
COUNTRIES = ["SE"] * 8 + ["FI", "DK", "NO", "FR"]


def _rating(rng: random.Random) -> dict:
    kind = rng.random()
    if kind < 0.55:
        return {"nordic": rng.randrange(80_000, 230_000) / 100}
    if kind < 0.75:
        return {"ffo": rng.randrange(120_000, 250_000) / 100}
    if kind < 0.85:
        return {
            "ffo": rng.randrange(120_000, 250_000) / 100,
            "provisional": True,
            "uncertainty": rng.randrange(5_000, 40_000) / 100,
        }
    return {}


def season_file(
    series: str, label: str, players: int, tournaments: int, *, seed: int, sizes=(20, 80)
) -> dict:
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    country = {p: rng.choice(COUNTRIES) for p in ids}
    rating = {p: _rating(rng) for p in ids}
    events = []
    unplaced = ids[:]
    rng.shuffle(unplaced)
    for t in range(tournaments):
        size = min(players, rng.randint(*sizes))
        # Everyone plays at least once: the players not placed yet come first.
        field, unplaced = unplaced[:size], unplaced[size:]
        rest = [p for p in ids if p not in set(field)]
        field += rng.sample(rest, size - len(field))
        rng.shuffle(field)
        events.append(
            {
                "id": f"t{t + 1}",
                "name": f"{rng.choice(CITIES)} GP {t + 1}",
                "date": f"{label[:4]}-{1 + t * 11 // max(tournaments, 1):02d}-{1 + t % 27:02d}",
                **({"sm": True} if t == tournaments // 2 else {}),
                "participants": [
                    {"player": p, "place": place, "country": country[p], "rating": rating[p]}
                    for place, p in enumerate(field, 1)
                ],
            }
        )
    return {
        "format": "competition/1",
        "system": "othello-gp",
        "series": series,
        "season": label,
        "name": f"Othello GP {label}",
        "clubs": [{"id": f"c{i}", "name": f"Club {i}"} for i in range(8)],
        "players": [
            {"id": p, "name": f"Player {p}", "club": f"c{i % 8}"} for i, p in enumerate(ids)
        ],
        "tournaments": events,
    }


def federation(quick: bool) -> list[dict]:
    tournaments, players = (6, 60) if quick else (30, 400)
    return [season_file("bench-gp", "2025", players, tournaments, seed=1)]


def describe(season) -> str:
    seats = Placement.objects.filter(tournament__season=season).count()
    return f"{season.tournaments.count()} tournaments, {seats:,} placements"


def bare_load(season) -> list:
    """The placements as the recompute reads them (its field list), in no order (no ORDER BY:
    the model's default ordering left out)."""
    from rankings.systems.othello.standings import PLACEMENT_FIELDS

    return list(
        Placement.objects.filter(tournament__season=season)
        .order_by()
        .values_list(*PLACEMENT_FIELDS)
    )


def changes(seasons) -> list:
    return [("one_change", seasons[-1])]


def change(season):
    """Correct one participant's Nordic rating in a tournament in the middle of the season
    (as the standings form saves a changed line), and back again."""
    tournaments = list(season.tournaments.order_by("date", "key"))
    middle = tournaments[len(tournaments) // 2]
    placement = (
        Placement.objects.filter(tournament=middle, nordic__isnull=False).order_by("place").first()
    )
    state = {"up": True}

    def correct():
        from competitions.systems.othello.entry import EntryRow
        from competitions.systems.othello.ratings import RatingEntry
        from competitions.systems.othello.services import standings_save

        rows = []
        for p in Placement.objects.filter(tournament=middle).select_related("player"):
            nordic = p.nordic
            if p.pk == placement.pk:
                nordic = nordic + (Decimal(1) if state["up"] else Decimal(-1))
            rows.append(
                EntryRow(
                    line=p.place,
                    place=p.place,
                    player=p.player,
                    new_name="",
                    country=p.country,
                    rating=RatingEntry(nordic, p.ffo, p.provisional, p.uncertainty),
                )
            )
        state["up"] = not state["up"]
        with transaction.atomic():
            standings_save(tournament=middle, rows=rows)

    return correct


def bulk_insert(data: dict, slug: str) -> None:
    from competitions.systems.othello.ratings import entry_from_json

    base = bulk_common(data, series_slug=slug)
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            season=base.season,
            key=t["id"],
            name=t["name"],
            date=t["date"],
            options={"sm": True} if t.get("sm") else {},
        )
        for t in data["tournaments"]
    )
    placements = []
    for tournament, t in zip(tournaments, data["tournaments"], strict=True):
        for p in t["participants"]:
            entry = entry_from_json(p["rating"])
            placements.append(
                Placement(
                    tournament=tournament,
                    player=base.players[p["player"]],
                    place=p["place"],
                    country=p["country"],
                    nordic=entry.nordic,
                    ffo=entry.ffo,
                    provisional=entry.provisional,
                    uncertainty=entry.uncertainty,
                )
            )
    Placement.objects.bulk_create(placements, batch_size=5000)


def field(players: int) -> dict:
    """A season of `players` players: 4 tournaments as large as a tournament may be."""
    size = min(players, 1000)
    return season_file(f"bench-gp-{players}", "2025", players, 4, seed=players, sizes=(size, size))


def pages(season) -> list:
    tournament = season.tournaments.order_by("key").first()
    found = [
        ("tournament", season_url(season, "tournament", tournament.key)),
        ("standings", season_url(season, "standings")),
        ("whatif", season_url(season, "whatif")),
        ("whatif_changed", season_url(season, "whatif") + "?a=0.005&b=8"),
    ]
    return found + shared_pages(season, "p1")


def manage_pages(season) -> list:
    """A tournament's standings form (every participant's place and rating)."""
    from competitions.views import manage_url

    tournament = season.tournaments.order_by("key").first()
    return [("tournament", manage_url(season, "tournament", tournament.key))] + (
        shared_manage_pages(season)
    )


def rps_page(season) -> str:
    return season_url(season, "standings")


def extra(quick: bool) -> list:
    """The what-if page with coefficients nobody asked for yet: the season computed afresh
    (its pages above are measured as a reload, which the page keeps for ten minutes)."""
    from common import PAGE_RUNS, side_by_side
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from competitions.models import Season

    seasons = Season.objects.filter(series__slug__regex=r"^bench-gp-[0-9]+$")
    season = max(seasons, key=lambda s: int(s.series.slug.rsplit("-", 1)[1]))
    path = season_url(season, "whatif") + "?a=0.006&b=9"
    client = Client()

    def afresh():
        cache.clear()
        assert client.get(path).status_code == 200

    t_page, t_trivial = side_by_side(afresh, lambda: client.get(reverse("help")), PAGE_RUNS)
    print(f"# othello: whatif with new coefficients {t_page * 1000:.1f} ms")
    return [("page.whatif_new_coefficients", t_page / t_trivial, 20)]
