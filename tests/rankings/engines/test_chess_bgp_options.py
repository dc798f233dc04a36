"""chess-othello-options.md §2: the BGP rule options. Golden tests for every worked example of
§2 (and its Decisions), and the property that the default settings give today's BGP points."""

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from rankings.engines.chess import (
    RESULTS,
    RULE_ALT,
    RULE_COUNTY,
    RULE_COUNTY_DENSE,
    RULE_DENSE,
    RULE_LARGE,
    RULE_SMALL,
    BgpRow,
    Game,
    GroupIn,
    RoundIn,
    Settings,
    class_scale,
    group_table,
    season_bgp,
    tournament_bgp,
)

from .bgp_today import season_bgp_today, tournament_bgp_today


def placed(*players: str):
    """A group table whose rows are these players at places 1, 2, ... (a tuple for a shared
    place): the BGP part reads only each row's player and place."""
    rows, place = [], 1
    for entry in players:
        names = entry if isinstance(entry, tuple) else (entry,)
        rows.extend(SimpleNamespace(player=name, place=place) for name in names)
        place += len(names)
    return SimpleNamespace(rows=tuple(rows))


def points(rows) -> dict[str, int]:
    return {r.player: r.points for r in rows}


LILLEPUTT_KM = [(placed("l1", "l2", "l3", "l4"), {f"l{i}": "Lilleputt" for i in range(1, 5)})]


# --- §2.1 county championship scale ----------------------------------------------------------


def test_county_championship_winner_others_is_today_and_dense_is_the_long_scale():
    """§2.1's example: KM, a Lilleputt group of 4, places 1 to 4."""
    today = tournament_bgp(LILLEPUTT_KM, participants=4, county=True)
    assert [r.points for r in today] == [20, 10, 10, 10]
    assert {r.rule for r in today} == {RULE_COUNTY}
    dense = tournament_bgp(
        LILLEPUTT_KM, participants=4, county=True, settings=Settings(county_scale="dense")
    )
    assert [r.points for r in dense] == [20, 19, 18, 17]
    assert {r.rule for r in dense} == {RULE_COUNTY_DENSE}


def test_county_dense_goes_on_to_five_after_the_long_scale_whatever_the_participants():
    group = placed(*(f"p{i}" for i in range(1, 19)))
    classes = {f"p{i}": "Junior" for i in range(1, 19)}
    rows = tournament_bgp(
        [(group, classes)], participants=18, county=True, settings=Settings(county_scale="dense")
    )
    assert [r.points for r in rows] == [*range(20, 5, -1), 5, 5, 5]


# --- §2.2 beginners placed after their age class ----------------------------------------------


def beginners_example():
    miniputt = placed("m1", "m2", "m3")
    lilleputt = placed(*(f"l{i}" for i in range(1, 13)))
    beginners = placed("b1", "x", "b2")  # the two Miniputt-age beginners 1st and 3rd
    groups = [
        (miniputt, {"m1": "Miniputt", "m2": "Miniputt", "m3": "Miniputt"}),
        (lilleputt, {f"l{i}": "Lilleputt" for i in range(1, 13)}),
        (beginners, {"b1": "Miniputt", "x": "Lilleputt", "b2": "Miniputt"}),
    ]
    return groups, frozenset({"b1", "x", "b2"})


def test_beginners_are_placed_after_the_players_of_their_age_class():
    """§2.2's example: Miniputt 20, 17, 15; its beginners places 4 and 5 (13, 11); a
    Lilleputt-age beginner behind 12 Lilleputt players place 13 (5 points)."""
    groups, beginners = beginners_example()
    rows = tournament_bgp(
        groups,
        participants=18,
        county=False,
        beginners=beginners,
        settings=Settings(beginners_after_class=True),
    )
    by = {r.player: r for r in rows}
    assert [(p, by[p].place, by[p].points) for p in ("m1", "m2", "m3", "b1", "b2", "x")] == [
        ("m1", 1, 20),
        ("m2", 2, 17),
        ("m3", 3, 15),
        ("b1", 4, 13),
        ("b2", 5, 11),
        ("x", 13, 5),
    ]
    assert (by["b1"].after, by["x"].after, by["m1"].after) == (3, 12, 0)
    # Listed by class, beginners after the class's players.
    assert [r.player for r in rows if r.player_class == "Miniputt"] == [
        "m1", "m2", "m3", "b1", "b2",
    ]  # fmt: skip


def test_without_the_option_a_beginner_is_ranked_in_his_group_and_can_get_twenty():
    groups, beginners = beginners_example()
    rows = points(tournament_bgp(groups, participants=18, county=False, beginners=beginners))
    assert (rows["b1"], rows["b2"], rows["x"]) == (20, 17, 20)


def test_beginners_sharing_a_place_share_it_and_the_others_are_placed_among_themselves():
    # One group: a beginner on top, two beginners sharing 3rd; the age-class players are 1, 2.
    group = placed("b1", "m1", ("b2", "b3"), "m2")
    classes = dict.fromkeys(("b1", "m1", "b2", "b3", "m2"), "Kadett")
    rows = tournament_bgp(
        [(group, classes)],
        participants=5,
        county=False,
        beginners=frozenset({"b1", "b2", "b3"}),
        settings=Settings(beginners_after_class=True),
    )
    assert [(r.player, r.place, r.points) for r in rows] == [
        ("m1", 1, 20),
        ("m2", 2, 17),
        ("b1", 3, 15),
        ("b2", 4, 13),
        ("b3", 4, 13),
    ]


def test_beginners_count_as_participants_for_the_over_fifty_test():
    groups, beginners = beginners_example()
    rows = points(
        tournament_bgp(
            groups,
            participants=51,
            county=False,
            beginners=beginners,
            settings=Settings(beginners_after_class=True),
        )
    )
    assert (rows["b1"], rows["b2"], rows["x"]) == (17, 16, 8)


# --- §2.3 best N results ------------------------------------------------------------------------


def season(*results: int, player="p", name="Kadett"):
    return [(f"t{i}", [BgpRow(player, name, 0, 1, pts)]) for i, pts in enumerate(results, 1)]


def test_best_five_of_the_season_and_all_by_default():
    """§2.3's example: 20, 17, 15, 13, 11, 10: best 5 = 76; all = 86."""
    tournaments = season(20, 17, 15, 13, 11, 10)
    assert season_bgp(tournaments)["Kadett"][0].points == 86
    best = season_bgp(tournaments, best_n=5)["Kadett"][0]
    assert best.points == 76
    assert best.counted == (("t1", 20), ("t2", 17), ("t3", 15), ("t4", 13), ("t5", 11))
    assert best.dropped == (("t6", 10),)


def test_among_equal_points_the_earlier_tournament_counts_and_ties_share_the_rank():
    standings = season_bgp(
        [
            ("t1", [BgpRow("p", "K", 0, 1, 10), BgpRow("q", "K", 0, 1, 20)]),
            ("t2", [BgpRow("p", "K", 0, 1, 20), BgpRow("q", "K", 0, 1, 10)]),
            ("t3", [BgpRow("p", "K", 0, 1, 10)]),
        ],
        best_n=2,
    )
    p, q = sorted(standings["K"], key=lambda r: r.player)
    assert p.counted == (("t1", 10), ("t2", 20)) and p.dropped == (("t3", 10),)
    assert (p.points, p.rank, q.points, q.rank) == (30, 1, 30, 1)


# --- §2.4 to §2.6 the small-class / single-club scale, the dense flag, the order -----------------

NORMAL_1998 = (20, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5)
ALT_1998 = (17, 14, 12, 10, 9, 8, 7, 6, 5)
SEASON_1998 = Settings(
    bgp_small=NORMAL_1998, bgp_alt_scale=ALT_1998, bgp_further=5, bgp_large_over=100_000
)


def test_the_1998_season_example():
    """§2.6's example: 30 participants from several clubs; Kadett 4 players, Lilleputt 8, a
    12-player class (Junior)."""
    kadett = {f"k{i}": "Kadett" for i in range(1, 5)}
    lilleputt = {f"l{i}": "Lilleputt" for i in range(1, 9)}
    junior = {f"j{i}": "Junior" for i in range(1, 13)}
    others = {f"o{i}": "" for i in range(1, 7)}
    groups = [
        (placed(*kadett), kadett),
        (placed(*lilleputt), lilleputt),
        (placed(*junior), junior),
        (placed(*others), others),
    ]
    clubs = {p: f"club{n % 3}" for n, p in enumerate([*kadett, *lilleputt, *junior, *others])}
    rows = tournament_bgp(groups, participants=30, county=False, settings=SEASON_1998, clubs=clubs)

    def of(name):
        return [r.points for r in rows if r.player_class == name]

    assert of("Kadett") == [17, 14, 12, 10]
    assert of("Lilleputt") == [20, 17, 15, 13, 11, 10, 9, 8]
    assert of("Junior") == [20, 17, 15, 13, 11, 10, 9, 8, 7, 6, 5, 5]
    assert {r.player_class: r.rule for r in rows} == {
        "Kadett": RULE_ALT,
        "Lilleputt": RULE_SMALL,
        "Junior": RULE_SMALL,
    }


def test_the_1996_scales_give_zero_after_the_list():
    s = Settings(
        bgp_small=tuple(range(20, 0, -1)),
        bgp_alt_scale=(17, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1),
        bgp_further=0,
    )
    group = placed(*(f"p{i}" for i in range(1, 16)))
    players = {f"p{i}": "K" for i in range(1, 16)}
    clubs = dict.fromkeys(players, "c1")
    rows = tournament_bgp(
        [(group, players)], participants=15, county=False, settings=s, clubs=clubs
    )
    # One club only: the alternative scale although the class has 15 players.
    assert [r.points for r in rows] == [17, 14, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]


def test_single_club_needs_every_participant_in_the_same_non_empty_club():
    s = SEASON_1998
    big = {f"p{i}": "K" for i in range(1, 8)}
    group = [(placed(*big), big)]

    def rule(clubs, settings=s):
        rows = tournament_bgp(group, participants=7, county=False, settings=settings, clubs=clubs)
        return rows[0].rule

    assert rule(dict.fromkeys(big, "c1")) == RULE_ALT
    assert rule({**dict.fromkeys(big, "c1"), "p7": None}) == RULE_SMALL  # one without a club
    assert rule({**dict.fromkeys(big, "c1"), "p7": "c2"}) == RULE_SMALL
    assert rule(dict.fromkeys(big, None)) == RULE_SMALL
    off = Settings(**{**s.__dict__, "bgp_alt_single_club": False})
    assert rule(dict.fromkeys(big, "c1"), off) == RULE_SMALL


def test_the_class_size_counts_the_whole_tournament_without_beginners():
    s = SEASON_1998
    a = {f"a{i}": "K" for i in range(1, 4)}
    b = {f"b{i}": "K" for i in range(1, 4)}
    two = [(placed(*a), a), (placed(*b), b)]  # 6 players of K over two groups: not small
    assert {r.rule for r in tournament_bgp(two, participants=6, county=False, settings=s)} == {
        RULE_SMALL
    }
    rows = tournament_bgp(
        two, participants=6, county=False, settings=s, beginners=frozenset({"b1"})
    )
    assert {r.rule for r in rows} == {RULE_ALT}  # 5 non-beginners
    under = Settings(**{**s.__dict__, "bgp_alt_class_under": 7})
    assert {r.rule for r in tournament_bgp(two, participants=6, county=False, settings=under)} == {
        RULE_ALT
    }


def test_the_exact_order_county_then_dense_then_alternative_then_short():
    s = Settings(bgp_alt_scale=ALT_1998, county_scale="dense")

    def rule(**kw):
        base = {"participants": 10, "county": False, "class_size": 3, "single_club": True}
        return class_scale(s, **{**base, **kw}).rule

    assert rule(county=True, dense=True) == RULE_COUNTY_DENSE
    assert class_scale(Settings(), participants=10, county=True, dense=True).rule == RULE_COUNTY
    assert rule(dense=True) == RULE_DENSE
    assert rule(participants=51) == RULE_LARGE
    assert rule() == RULE_ALT
    assert rule(class_size=6, single_club=False) == RULE_SMALL
    # The dense flag: the long scale with few participants.
    dense = tournament_bgp(LILLEPUTT_KM, participants=4, county=False, dense=True)
    assert [r.points for r in dense] == [20, 19, 18, 17]
    assert class_scale(Settings(), participants=4, county=False).rule == RULE_SMALL


# --- the default settings give today's points ------------------------------------------------


@st.composite
def tournaments(draw):
    """A season: tournaments of groups of random games, players with random classes, some
    flagged as beginners, with random clubs, some tournaments county championships."""
    pool = [f"p{i}" for i in range(12)]
    made = []
    for t in range(draw(st.integers(1, 4))):
        players = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=10, unique=True))
        cut = draw(st.integers(1, len(players)))
        groups = []
        for members in (players[:cut], players[cut:]):
            if not members:
                continue
            rounds = []
            for _ in range(draw(st.integers(0, 4))):
                order = draw(st.permutations(members))
                games = tuple(
                    Game(order[i], order[i + 1], draw(st.sampled_from(RESULTS)))
                    for i in range(0, len(order) - 1, 2)
                    if draw(st.booleans())
                )
                rounds.append(RoundIn(games=games))
            table = group_table(GroupIn(players=tuple(members), rounds=tuple(rounds)))
            classes = {
                p: draw(st.sampled_from(["", "Kadett", "Junior", "Miniputt"])) for p in members
            }
            groups.append((table, classes))
        made.append(
            {
                "key": f"t{t}",
                "groups": groups,
                "participants": draw(st.sampled_from([len(players), 49, 50, 51, 80])),
                "county": draw(st.booleans()),
                "beginners": frozenset(draw(st.lists(st.sampled_from(players), unique=True))),
                "clubs": {p: draw(st.sampled_from([None, "c1", "c2"])) for p in players},
            }
        )
    return made


@given(tournaments())
@settings(max_examples=200, deadline=None)
def test_default_settings_give_todays_bgp_points_and_standings(made):
    """With every §2 option at its default (and a tournament's beginners and clubs given),
    the rows and the season standings are exactly today's."""
    s = Settings()
    new_rows, old_rows = [], []
    for t in made:
        rows = tournament_bgp(
            t["groups"],
            participants=t["participants"],
            county=t["county"],
            settings=s,
            beginners=t["beginners"],
            clubs=t["clubs"],
        )
        old = tournament_bgp_today(
            t["groups"], participants=t["participants"], county=t["county"], settings=s
        )
        assert [tuple(r[:5]) for r in rows] == old
        assert all(r.after == 0 for r in rows)
        new_rows.append((t["key"], rows))
        old_rows.append((t["key"], old))
    standings = season_bgp(new_rows, best_n=s.bgp_best_n)
    assert {
        name: [(r.player, r.rank, r.points, r.counted) for r in rows]
        for name, rows in standings.items()
    } == season_bgp_today(old_rows)
    assert all(not r.dropped for rows in standings.values() for r in rows)
