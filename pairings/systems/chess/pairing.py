"""Pairing the next round of a chess group (rules.md §3): load the group, run the Monrad engine,
store the result as the round's games and WO."""

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from competitions.models import Group, Player, Round, RoundEntry, Season
from competitions.systems.chess import services
from pairings.engines import monrad
from rankings.systems.chess.standings import LoadedGroup, engine_settings, load_groups


def load(season: Season, group: Group) -> tuple[LoadedGroup, set[str]]:
    """The group's results, and who had a WO in another group of the same tournament."""
    loaded = load_groups(season, group_ids=[group.pk])[group.pk]
    elsewhere = set(
        RoundEntry.objects.filter(
            round__tournament_id=group.tournament_id, status=RoundEntry.Status.WALKOVER
        )
        .exclude(round__group_id=group.pk)
        .values_list("player__key", flat=True)
    )
    return loaded, elsewhere


def pair_next_round(season: Season, *, group: Group, present: list[str] | None = None) -> dict:
    """The next round's pairing as the `pair_round` JSON of interchange.md (plus the group and
    whether pairs meet again). `present`: player keys, default everyone in the group."""
    loaded, elsewhere = load(season, group)
    if loaded.rounds:
        last = max(loaded.rounds)
        if not loaded.rounds[last]["games"] and not loaded.rounds[last]["walkovers"]:
            raise ValidationError(
                _("Round %(n)s has no games yet: enter them, or delete the round, before pairing.")
                % {"n": last}
            )
    # Round 1 pairs 1 against 2, 3 against 4, ... of the start numbers: before round 1 the
    # loaded players are by rating unless the organiser set them (start_numbers.py); saving
    # round 1 stores those numbers (services.start_numbers_fix).
    group_in = loaded.engine_input()
    open_rounds = monrad.open_rounds(group_in)
    if open_rounds:  # the engine refuses it too, in its own words (it speaks no language)
        raise ValidationError(
            _("Enter the results of round %(n)s before pairing the next round.")
            % {"n": ", ".join(map(str, open_rounds))}
        )
    if present is None:
        present = list(group_in.players)
    try:
        out = monrad.pair_next_round(
            group_in, present, walkovers_elsewhere=elsewhere, settings=engine_settings(season)
        )
    except monrad.PairingError as exc:
        raise ValidationError(str(exc)) from exc
    relaxed = [f"rematch:{out.rematch_level}"] if out.rematch_level else []
    if out.second_walkover:
        relaxed.append("second-walkover")
    return {
        "round": out.round,
        "group": group.pk,
        "pairs": [
            {"white": p.white, "black": p.black, "manual": False, "rematch": p.rematch}
            for p in out.pairs
        ],
        "bye": out.walkover,
        "relaxed": relaxed,
    }


def save(season: Season, pairing: dict[str, Any]) -> Round:
    """Store a pairing (from `pair_next_round`) as the group's next round."""
    group = Group.objects.select_related("tournament__season").get(
        pk=pairing["group"], tournament__season=season
    )
    keys = {k for p in pairing["pairs"] for k in (p["white"], p["black"])}
    if pairing["bye"]:
        keys.add(pairing["bye"])
    players = {p.key: p for p in Player.objects.filter(series_id=season.series_id, key__in=keys)}
    if len(players) != len(keys):
        raise ValidationError(_("A player of the pairing is unknown."))
    return services.pairing_save(
        group=group,
        number=pairing["round"],
        pairs=[(players[p["white"]], players[p["black"]]) for p in pairing["pairs"]],
        walkover=players[pairing["bye"]] if pairing["bye"] else None,
    )
