"""The FIDE TRF16 file of a chess group, from its results (not the stored standings, so the file
is never behind the data): the engine ranks the group, `competitions.systems.chess.trf` lays out
the lines."""

from competitions.models import Group, Season
from competitions.systems.chess import tiebreak_codes, trf
from rankings.engines import chess as engine

from .standings import engine_settings, load_groups

CODES = {
    engine.WIN: trf.WIN,
    engine.DRAWN: trf.DRAW,
    engine.LOSS: trf.LOSS,
    engine.FORFEIT_WIN: trf.FORFEIT_WIN,
    engine.FORFEIT_LOSS: trf.FORFEIT_LOSS,
    engine.UNFINISHED: trf.NOT_YET,
}
COLOURS = {engine.WHITE: "w", engine.BLACK: "b"}
# TRF16 knows 1-½-0 only; other points systems are named in bbpPairings's extension lines.
THREE_TWO_ONE_LINES = ["BBW 3.0", "BBD 2.0", "BBL 1.0", "BBZ 0.0", "BBF 0.0", "BBU 3.0"]


def trf_group(
    group: Group, loaded, settings: engine.Settings, names: dict[str, str]
) -> trf.TrfGroup:
    """The group in TRF16 terms: start ranks, points, places, and per round the opponent's
    start rank, colour and result (WO: a pairing-allocated bye; not played: a zero-point bye;
    a half-point bye: H), the group's tie-break list when it is not today's NSF list (a
    TRF-2026 202 record) and its format when one is set, its own or the season's (a TRF-2026
    192 record; automatic writes none)."""
    out = engine.group_table(loaded.engine_input(), settings)
    members = {m.player: m for m in loaded.members}
    start = {row.player: row.start for row in out.rows}
    players = []
    for row in sorted(out.rows, key=lambda r: r.start):
        member = members[row.player]
        games = []
        for o in row.outcomes:
            if o.kind == engine.WALKOVER:
                games.append(trf.TrfGame(0, "-", trf.PAIRING_BYE))
            elif o.kind == engine.NOT_PLAYED:
                games.append(trf.TrfGame(0, "-", trf.ABSENT))
            elif o.kind == engine.HALF_BYE:
                games.append(trf.TrfGame(0, "-", trf.HALF_BYE))
            else:
                games.append(trf.TrfGame(start[o.opponent], COLOURS[o.colour], CODES[o.kind]))
        players.append(
            trf.TrfPlayer(
                start=row.start,
                name=names.get(row.player, row.player),
                rating=member.rating,
                born=member.born,
                points=trf.points_text(float(row.points)),
                rank=row.place,
                games=games,
            )
        )
    return trf.TrfGroup(
        name=f"{group.tournament.name}, {group.name}",
        date=group.tournament.date.strftime("%Y/%m/%d") if group.tournament.date else None,
        rounds=out.rounds,
        players=players,
        extra=THREE_TWO_ONE_LINES if group.scale == engine.THREE_TWO_ONE else [],
        tiebreaks=[]
        if tiebreak_codes.is_nsf_default(out.codes, out.rounds, settings.monrad_long_from)
        else list(out.codes),
        group_format="" if loaded.group_format == tiebreak_codes.AUTO else loaded.group_format,
    )


def group_trf(season: Season, group: Group) -> str:
    loaded = load_groups(season, group_ids=[group.pk])[group.pk]
    names = dict(group.members.values_list("player__key", "player__name"))
    return trf.write(trf_group(group, loaded, engine_settings(season), names))
