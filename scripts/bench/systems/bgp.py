"""The youth chess BGP at federation scale: a season of 8 tournaments, each one group of 70
players (from a roster of 160, five BGP classes) over 7 rounds paired Monrad-style (points, then
start number, no rematches), with walkovers, forfeits and missed rounds."""

import random
import time

from common import bulk_common, shared_manage_pages, shared_pages, side_by_side
from django.db import transaction

from competitions.models import Game, Group, Round, RoundEntry, Tournament
from competitions.systems.chess.models import GroupPlayer
from rankings.urls_helpers import season_url

NAME = "chess"
CLASSES = ("Junior", "Kadett", "Lilleputt", "Miniputt", "Knøtt")
TOURNAMENTS, GROUP_SIZE, ROUNDS, ROSTER = 8, 70, 7, 160


def _pair(order: list[str], met: set[frozenset]) -> list[tuple[str, str]]:
    """Top-down: each highest unpaired player against the highest below him not met yet (the
    last ones may meet again): cheap, and enough for bench data."""
    free = order[:]
    pairs = []
    while len(free) > 1:
        a = free.pop(0)
        b = next((q for q in free if frozenset((a, q)) not in met), free[0])
        free.remove(b)
        pairs.append((a, b))
    return pairs


def _group(rng: random.Random, members: list[str], strength: dict, rounds: int) -> list[list]:
    points = dict.fromkeys(members, 0.0)
    start = {p: i for i, p in enumerate(members)}
    whites = dict.fromkeys(members, 0)
    met: set[frozenset] = set()
    had_wo: set[str] = set()
    out = []
    for _ in range(rounds):
        present = [p for p in members if rng.random() > 0.02]
        order = sorted(present, key=lambda p: (-points[p], start[p]))
        listing: list[dict] = []
        if len(order) % 2:
            lone = next(
                (p for p in reversed(order) if p not in had_wo), order[-1]
            )  # fewest points without a WO
            order.remove(lone)
            had_wo.add(lone)
            points[lone] += 1
            walkover = [{"walkover": lone}]
        else:
            walkover = []
        for a, b in _pair(order, met):
            met.add(frozenset((a, b)))
            white, black = (a, b) if whites[a] <= whites[b] else (b, a)
            whites[white] += 1
            roll = rng.random()
            if roll < 0.01:
                result = rng.choice(["+-", "-+"])
            else:
                expected = 1 / (1 + 10 ** ((strength[black] - strength[white] - 30) / 400))
                result = (
                    "1-0"
                    if roll < expected - 0.09
                    else "1/2-1/2"
                    if roll < expected + 0.09
                    else "0-1"
                )
            gained = {
                "1-0": (1, 0),
                "0-1": (0, 1),
                "1/2-1/2": (0.5, 0.5),
                "+-": (1, 0),
                "-+": (0, 1),
            }
            pw, pb = gained[result]
            points[white] += pw
            points[black] += pb
            listing.append({"white": white, "black": black, "result": result})
        out.append(listing + walkover)
    return out


def season_file(
    series: str, label: str, roster: int, tournaments: int, group_size: int, *, seed: int
) -> dict:
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(roster)]
    born = {p: 2007 + rng.randrange(12) for p in ids}
    strength = {p: int(1700 - 70 * (born[p] - 2006) + rng.gauss(0, 150)) for p in ids}
    rating = {p: max(600, strength[p] + int(rng.gauss(0, 60))) for p in ids}
    events = []
    for t in range(tournaments):
        members = rng.sample(ids, min(group_size, roster))
        members.sort(key=lambda p: (-rating[p], p))
        events.append(
            {
                "id": f"t{t + 1}",
                "name": f"BGP {t + 1}",
                "date": f"{label[:4]}-{1 + t * 11 // max(tournaments, 1):02d}-{1 + t % 27:02d}",
                "county_championship": t == tournaments - 1 and tournaments > 2,
                "draw_seed": seed * 1000 + t,
                "groups": [
                    {
                        "name": "Gruppe A",
                        "scale": "1-half-0" if t % 2 == 0 else "3-2-1",
                        "players": [
                            {
                                "player": p,
                                "class": CLASSES[min(4, (born[p] - 2007) * 5 // 12)],
                                "born": born[p],
                                "rating": rating[p],
                            }
                            for p in members
                        ],
                        "rounds": _group(rng, members, strength, ROUNDS),
                    }
                ],
            }
        )
    return {
        "format": "competition/1",
        "system": "chess-bgp",
        "series": series,
        "season": label,
        "name": f"BGP {label}",
        "clubs": [{"id": f"c{i}", "name": f"Club {i}"} for i in range(12)],
        "players": [
            {"id": p, "name": f"Player {p}", "club": f"c{i % 12}"} for i, p in enumerate(ids)
        ],
        "tournaments": events,
    }


def federation(quick: bool) -> list[dict]:
    if quick:
        return [season_file("bench-bgp", "2025", 40, 3, 20, seed=1)]
    return [season_file("bench-bgp", "2025", ROSTER, TOURNAMENTS, GROUP_SIZE, seed=1)]


def describe(season) -> str:
    games = Game.objects.filter(round__season=season).count()
    players = GroupPlayer.objects.filter(group__tournament__season=season).count()
    return f"{season.tournaments.count()} tournaments, {players:,} group places, {games:,} games"


def bare_load(season) -> list:
    """The rows a recompute reads (rankings.systems.chess.standings.load_groups), as tuples,
    with no ORDER BY (scripts/bench/systems/README.md: the floor reads in no order)."""
    return [
        list(season.tournaments.order_by().values_list("id", "key", "name", "date", "options")),
        list(
            Group.objects.filter(tournament__season=season)
            .order_by()
            .values_list("id", "tournament_id", "name", "scale")
        ),
        list(
            GroupPlayer.objects.filter(group__tournament__season=season)
            .order_by()
            .values_list("group_id", "player__key", "player_class", "rating", "player__born")
        ),
        list(
            Round.objects.filter(season=season, group__isnull=False)
            .order_by()
            .values_list("id", "group_id", "number")
        ),
        list(
            RoundEntry.objects.filter(round__season=season, round__group__isnull=False)
            .order_by()
            .values_list("round_id", "player__key", "status", "game_id", "colour", "game__result")
        ),
    ]


def changes(seasons) -> list:
    return [("one_change", seasons[-1])]


def change(season):
    """Flip one result of round 4 of the middle tournament (1-0 <-> 0-1 or draw), as the
    manager's results form saves it."""
    from competitions.edits import Edit
    from competitions.systems.chess.services import results_save

    tournaments = list(season.tournaments.order_by("date", "key"))
    middle = tournaments[len(tournaments) // 2]
    round_ = Round.objects.filter(tournament=middle, number=min(4, ROUNDS)).first()
    game = round_.games.exclude(result__in=["+-", "-+", ""]).order_by("board").first()
    original = game.result
    flipped = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[original]
    state = {"now": original}

    def flip():
        state["now"] = flipped if state["now"] == original else original
        with transaction.atomic():
            results_save(round_=round_, rows=[Edit.sent(game.pk, state["now"])])

    return flip


def bulk_insert(data: dict, slug: str) -> None:
    base = bulk_common(data, series_slug=slug)
    season = base.season
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            season=season,
            key=t["id"],
            name=t["name"],
            date=t["date"],
            options={"county_championship": True} if t.get("county_championship") else {},
            draw_seed=t["draw_seed"],
        )
        for t in data["tournaments"]
    )
    groups = Group.objects.bulk_create(
        Group(tournament=tournament, name=g["name"], position=i, scale=g["scale"])
        for tournament, t in zip(tournaments, data["tournaments"], strict=True)
        for i, g in enumerate(t["groups"])
    )
    raw_groups = [
        (tournament, g)
        for tournament, t in zip(tournaments, data["tournaments"], strict=True)
        for g in t["groups"]
    ]
    GroupPlayer.objects.bulk_create(
        (
            GroupPlayer(
                group=group,
                tournament=tournament,
                player=base.players[m["player"]],
                position=i,
                player_class=m.get("class", ""),
                rating=m.get("rating"),
            )
            for group, (tournament, g) in zip(groups, raw_groups, strict=True)
            for i, m in enumerate(g["players"], 1)
        ),
        batch_size=5000,
    )
    rounds = Round.objects.bulk_create(
        Round(season=season, tournament=tournament, group=group, number=n)
        for group, (tournament, g) in zip(groups, raw_groups, strict=True)
        for n in range(1, len(g["rounds"]) + 1)
    )
    by_round = iter(rounds)
    games, entries = [], []
    for _group, (_t, g) in zip(groups, raw_groups, strict=True):
        for listing in g["rounds"]:
            round_ = next(by_round)
            board = 0
            for e in listing:
                if "walkover" in e:
                    entries.append((None, round_, e["walkover"], "walkover", ""))
                    continue
                board += 1
                game = Game(round=round_, board=board, result=e.get("result", ""))
                games.append(game)
                entries.append((game, round_, e["white"], "played", "white"))
                entries.append((game, round_, e["black"], "played", "black"))
    Game.objects.bulk_create(games, batch_size=5000)
    RoundEntry.objects.bulk_create(
        (
            RoundEntry(round=r, game=g, player=base.players[p], status=s, colour=c)
            for g, r, p, s, c in entries
        ),
        batch_size=5000,
    )


def field(players: int) -> dict:
    return season_file(f"bench-bgp-{players}", "2025", players, 2, players, seed=players)


def pages(season) -> list:
    tournament = season.tournaments.order_by("key").first()
    group = Group.objects.filter(tournament=tournament).order_by("position").first()
    cls = season.standings_tables.filter(kind="class").order_by("position").first()
    found = [
        ("tournament", season_url(season, "tournament", tournament.key)),
        ("group", season_url(season, "group", tournament.key, group.pk)),
        ("classes", season_url(season, "classes")),
    ]
    if cls is not None:
        found.append(("class", season_url(season, "class", cls.key)))
    return found + shared_pages(season, "p1")


def manage_pages(season) -> list:
    """A tournament, and its first group (its players and rounds, where games are entered)."""
    from competitions.views import manage_url

    tournament = season.tournaments.order_by("key").first()
    group = Group.objects.filter(tournament=tournament).order_by("position").first()
    return [
        ("tournament", manage_url(season, "tournament", tournament.key)),
        ("group", manage_url(season, "group", tournament.key, group.pk)),
    ] + shared_manage_pages(season)


def rps_page(season) -> str:
    cls = season.standings_tables.filter(kind="class").order_by("position").first()
    return season_url(season, "class", cls.key)


# --- Monrad pairing of 200 present players ÷ building the allowed-pairs graph --------------------


def _pairing_group(rng: random.Random, size: int, rounds: int):
    from rankings.engines import chess as engine

    data = season_file("x", "2025", size, 1, size, seed=rng.randrange(10**6))
    g = data["tournaments"][0]["groups"][0]
    members = tuple(m["player"] for m in g["players"])
    engine_rounds = []
    for listing in g["rounds"][:rounds]:
        games = tuple(
            engine.Game(e["white"], e["black"], e["result"]) for e in listing if "white" in e
        )
        walkovers = tuple(e["walkover"] for e in listing if "walkover" in e)
        engine_rounds.append(engine.RoundIn(games=games, walkovers=walkovers))
    return engine.GroupIn(players=members, rounds=tuple(engine_rounds))


def extra(quick: bool) -> list:
    from pairings.engines import monrad

    size = 60 if quick else 200
    rng = random.Random(7)
    group = _pairing_group(rng, size, 5)
    present = list(group.players)

    def pairing():
        monrad.pair_next_round(group, present)

    def graph():
        history = monrad.histories(group)
        start = {p: i for i, p in enumerate(group.players)}
        order = sorted(present, key=lambda p: (-history[p].points, start[p]))
        monrad._adjacency(order, monrad.meetings(group), 0)

    t_pair, t_graph = side_by_side(pairing, graph)
    # Completeness: pair round after round (results drawn at random), every present player paired
    # (or the one walkover), over several groups.
    from rankings.engines import chess as engine

    complete = True
    started = time.perf_counter()
    for trial in range(3 if quick else 4):
        g = engine.GroupIn(players=tuple(f"q{i}" for i in range(size - trial)))
        for _ in range(ROUNDS):
            here = [p for p in g.players if rng.random() > 0.05]
            out = monrad.pair_next_round(g, here)
            paired = [p for pair in out.pairs for p in (pair.white, pair.black)]
            if out.walkover:
                paired.append(out.walkover)
            if sorted(paired) != sorted(here) or len(set(paired)) != len(paired):
                complete = False
            games = tuple(
                engine.Game(p.white, p.black, rng.choice(["1-0", "0-1", "1/2-1/2"]))
                for p in out.pairs
            )
            walkovers = (out.walkover,) if out.walkover else ()
            g = engine.GroupIn(
                players=g.players, rounds=(*g.rounds, engine.RoundIn(games, walkovers))
            )
    elapsed = time.perf_counter() - started
    return [
        ("monrad_pairing_vs_graph", t_pair / t_graph, 20),
        ("monrad_pairing_complete", "yes" if complete else "no", None),
        ("monrad_pairing_rounds_seconds", round(elapsed, 2), None),
    ]
