"""The Keizer club competition at federation scale: a season of 60 players and 35 evenings,
each evening paired by the real pairer (rules.md §4.3) from the list after the previous one;
pages at 2000 players; and the pairing of 200 present players ÷ building its allowed-pairs graph.

The same season is also measured with `current` valuation (keizer-variants.md §1.5: each list
recomputed until it values itself), the most work a season's settings can ask of a recompute:
the rules' settings with `current` valuation, and the `classic` preset (own value once, no start
points, a loss worth nothing).
"""

import datetime
import random
import time

from common import bulk_common, shared_manage_pages, shared_pages, side_by_side
from django.db import transaction

from competitions.models import Game, Round, RoundEntry
from pairings.engines import keizer as pairer
from rankings.engines import keizer as engine
from rankings.urls_helpers import season_url

NAME = "keizer"
RESULTS = ("1-0", "0-1", "1/2-1/2")
STATUS_OF_LIST = {
    "bye": RoundEntry.Status.BYE,
    "absent": RoundEntry.Status.ABSENT,
    "external": RoundEntry.Status.EXTERNAL,
    "unexcused": RoundEntry.Status.UNEXCUSED,
}


def _history(rounds: list[dict]) -> pairer.History:
    return pairer.History(
        games=tuple(
            pairer.PastGame(r["number"], g["white"], g["black"]) for r in rounds for g in r["games"]
        ),
        byes=tuple((r["number"], p) for r in rounds for p in r["bye"]),
    )


def _round_in(r: dict) -> engine.RoundIn:
    return engine.RoundIn(
        number=r["number"],
        games=tuple(engine.GameIn(g["white"], g["black"], g["result"]) for g in r["games"]),
        byes=tuple(r["bye"]),
        absent=tuple(r["absent"]),
        external=tuple(r["external"]),
        unexcused=tuple(r["unexcused"]),
    )


def _evenings(ids: list[str], count: int, *, seed: int, pair: bool = True) -> list[dict]:
    """`count` evenings of the players `ids` (strongest first): about 85 % present, the rest
    absent with or without notice or external; the present paired by the real pairer from the
    list after the previous evening (or, with pair=False, in list order, for huge fields)."""
    rng = random.Random(seed)
    strength = {p: len(ids) - i for i, p in enumerate(ids)}
    rounds: list[dict] = []
    first = datetime.date(2025, 9, 4)
    for number in range(1, count + 1):
        present, absent, external, unexcused = [], [], [], []
        for p in ids:
            x = rng.random()
            if x < 0.85:
                present.append(p)
            elif x < 0.92:
                absent.append(p)
            elif x < 0.97:
                external.append(p)
            else:
                unexcused.append(p)
        if pair:
            season_in = engine.SeasonIn(
                players=tuple(ids),
                start_points={},
                rounds=tuple(_round_in(r) for r in rounds),
            )
            listed = engine.compute_season(season_in).lists[-1]
            chosen = set(present)
            ranking = [row.player for row in listed.rows if row.player in chosen]
            pairing = pairer.pair_round(number=number, ranking=ranking, history=_history(rounds))
            pairs = [(p.white, p.black) for p in pairing.pairs]
            bye = [pairing.bye] if pairing.bye else []
        else:
            bye = [present.pop()] if len(present) % 2 else []
            pairs = [(present[i], present[i + 1]) for i in range(0, len(present), 2)]
        games = []
        for white, black in pairs:
            edge = (strength[white] - strength[black]) / (2 * len(ids))
            x = rng.random() + edge
            result = "1-0" if x > 0.6 else "0-1" if x < 0.3 else "1/2-1/2"
            games.append({"white": white, "black": black, "result": result})
        rounds.append(
            {
                "number": number,
                "date": (first + datetime.timedelta(days=7 * (number - 1))).isoformat(),
                "games": games,
                "bye": bye,
                "absent": absent,
                "external": external,
                "unexcused": unexcused,
            }
        )
    return rounds


def season_file(series: str, players: int, evenings: int, *, seed: int, pair: bool = True) -> dict:
    ids = [f"p{i}" for i in range(players)]
    return {
        "format": "competition/1",
        "system": "keizer",
        "series": series,
        "season": "2025-2026",
        "name": f"Keizer {players}",
        "players": [{"id": p, "name": f"Player {p}"} for p in ids],
        "rounds": _evenings(ids, evenings, seed=seed, pair=pair),
        "closed": False,
    }


def federation(quick: bool) -> list[dict]:
    players, evenings = (20, 8) if quick else (60, 35)
    return [season_file("bench-keizer", players, evenings, seed=7)]


# keizer-variants.md §1.5: the measured season again with the list valuing itself.
VARIANTS = (
    ("current", {"valuation": "current"}),
    ("classic", {"preset": "classic"}),
)


def describe(season) -> str:
    rounds = Round.objects.filter(season=season, tournament=None).count()
    entries = RoundEntry.objects.filter(round__season=season).count()
    found = f"{season.entries.count()} players, {rounds} evenings, {entries:,} round entries"
    return found + _passes(season)


def _passes(season) -> str:
    """With `current` valuation, how its stored lists were found (passes of F_k, and how each
    ended: a fixed point, a cycle, the bound)."""
    from rankings.models import StandingsTable

    ends: dict[str, int] = {}
    passes = []
    for data in StandingsTable.objects.filter(season=season, kind="list").values_list(
        "data", flat=True
    ):
        variant = data.get("variant") or {}
        if variant.get("options", {}).get("valuation") != engine.CURRENT:
            return ""
        passes.append(variant["passes"])
        ends[variant["end"]] = ends.get(variant["end"], 0) + 1
    if not passes:
        return ""
    shown = ", ".join(f"{count} {end}" for end, count in sorted(ends.items()))
    return (
        f"; {sum(passes)} passes over {len(passes)} lists (at most {max(passes)} for one): {shown}"
    )


def bare_load(season) -> list:
    """The rows the recompute reads: the evenings, their games and their round entries, with
    no ORDER BY (the models' default orderings left out: the floor reads in no order)."""
    rounds = list(
        Round.objects.filter(season=season, tournament=None, group=None)
        .order_by()
        .values_list("pk", "number", "date")
    )
    games = list(
        Game.objects.filter(round__season=season, round__tournament=None)
        .order_by()
        .values_list("pk", "round_id", "board", "result", "manual")
    )
    entries = list(
        RoundEntry.objects.filter(round__season=season, round__tournament=None)
        .order_by()
        .values_list("round_id", "player__key", "status", "game_id", "colour", "volunteer_bye")
    )
    return [rounds, games, entries]


def changes(seasons) -> list:
    return [("one_change", seasons[-1])]


def change(season):
    """Correct one game's result on an evening in the last quarter of the season, as the
    results page does (game_result_set); again: back."""
    from competitions.systems.keizer.services import game_result_set

    rounds = list(Round.objects.filter(season=season, tournament=None).order_by("number"))
    evening = rounds[len(rounds) * 3 // 4]
    game = Game.objects.filter(round=evening).order_by("board").first()
    original = game.result
    other = "1/2-1/2" if original != "1/2-1/2" else "1-0"

    def flip():
        with transaction.atomic():
            current = Game.objects.get(pk=game.pk)
            game_result_set(game=current, result=other if current.result == original else original)

    return flip


def bulk_insert(data: dict, slug: str) -> None:
    base = bulk_common(data, series_slug=slug)
    season = base.season
    players = base.players
    rounds = Round.objects.bulk_create(
        Round(season=season, number=r["number"], date=r.get("date")) for r in data["rounds"]
    )
    games, planned, entries = [], [], []
    for round_, r in zip(rounds, data["rounds"], strict=True):
        for board, g in enumerate(r["games"], 1):
            game = Game(round=round_, board=board, result=g.get("result", ""))
            games.append(game)
            planned.append((game, g))
        for key, status in STATUS_OF_LIST.items():
            entries.extend(
                RoundEntry(round=round_, player=players[p], status=status) for p in r.get(key, [])
            )
    Game.objects.bulk_create(games, batch_size=2000)
    for game, g in planned:
        entries.append(
            RoundEntry(
                round_id=game.round_id,
                player=players[g["white"]],
                status=RoundEntry.Status.PLAYED,
                game=game,
                colour=RoundEntry.Colour.WHITE,
            )
        )
        entries.append(
            RoundEntry(
                round_id=game.round_id,
                player=players[g["black"]],
                status=RoundEntry.Status.PLAYED,
                game=game,
                colour=RoundEntry.Colour.BLACK,
            )
        )
    RoundEntry.objects.bulk_create(entries, batch_size=5000)


def field(players: int) -> dict:
    # Paired in list order: the pages are measured here, not the pairer.
    return season_file(f"bench-keizer-{players}", players, 5, seed=players, pair=False)


def pages(season) -> list:
    return [
        ("list_after", season_url(season, "list", 2)),
        ("evenings", season_url(season, "rounds")),
        ("evening", season_url(season, "round", 3)),
    ] + shared_pages(season, "p1")


def manage_pages(season) -> list:
    """The newest evening's attendance and the next one's, the results of the last one
    paired, and the initial list."""
    from competitions.views import manage_url

    last = Round.objects.filter(season=season, tournament=None).order_by("-number").first()
    paired = (
        Game.objects.filter(round__season=season)
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
    )
    return [
        ("attendance", manage_url(season, "attendance", last.number)),
        # The next evening, not paired yet: every player's buttons (the newest one is paired).
        ("attendance_next", manage_url(season, "attendance", last.number + 1)),
        ("results", manage_url(season, "results", paired)),
        ("list", manage_url(season, "keizer_list")),
    ] + shared_manage_pages(season)


def rps_page(season) -> str:
    return season_url(season, "")


# --- the pairing: 200 present players ÷ building their allowed-pairs graph --------------------


def _pairing_setup(players: int, evenings: int, seed: int):
    ids = [f"p{i}" for i in range(players)]
    rounds = _evenings(ids, evenings, seed=seed)
    season_in = engine.SeasonIn(
        players=tuple(ids), start_points={}, rounds=tuple(_round_in(r) for r in rounds)
    )
    ranking = [row.player for row in engine.compute_season(season_in).lists[-1].rows]
    return ids, rounds, ranking


def extra(quick: bool) -> list:
    players, evenings = (40, 6) if quick else (200, 12)
    started = time.perf_counter()
    ids, rounds, ranking = _pairing_setup(players, evenings, seed=11)
    history = _history(rounds)
    number = evenings + 1
    rules = pairer.Rules()

    def pair():
        pairer.pair_round(number=number, ranking=ranking, history=history, rules=rules)

    def graph():
        facts = pairer._Facts(history, rules)
        rater = pairer._Rater(facts, number)
        pairer.allowed_graph(ranking, rater, pairer.stages(rules, bye=False)[0])

    t_pair, t_graph = side_by_side(pair, graph)
    # Complete: every evening generated above (and one more) paired everyone present.
    complete = all(
        sum(2 for _g in r["games"]) + len(r["bye"])
        == players - len(r["absent"]) - len(r["external"]) - len(r["unexcused"])
        for r in rounds
    )
    out = pairer.pair_round(number=number, ranking=ranking, history=history, rules=rules)
    paired = {p for pair_ in out.pairs for p in (pair_.white, pair_.black)} | (
        {out.bye} if out.bye else set()
    )
    complete = complete and paired == set(ranking)
    print(
        f"# keizer: pairing {players} present {t_pair * 1000:.0f} ms, graph "
        f"{t_graph * 1000:.1f} ms, {evenings + 1} evenings paired "
        f"(setup {time.perf_counter() - started:.1f} s)",
        flush=True,
    )
    return [
        ("pairing_vs_graph", t_pair / t_graph, 20),
        ("pairing_complete", "yes" if complete else "no", None),
    ]
