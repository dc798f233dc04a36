"""Pairing the next Keizer evening from the stored data (rules.md §4.3): the evening whose
attendance is taken, the list after the previous round (computed fresh, not read from possibly
stale stored standings), the season's earlier games and byes, and the settings.

`pair_next_round(season, manual=...)` gives interchange.md's `pair_round` JSON; `save(season,
pairing)` stores it as the evening's games and bye. Problems a leader can fix are
ValidationErrors with a message that says what to do.
"""

from dataclasses import dataclass, replace
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from competitions.models import Player, Round, Season
from competitions.systems.keizer.services import round_pairing_save
from competitions.systems.keizer.settings import parse_settings
from pairings.engines import keizer as pairer
from rankings.engines import keizer as engine
from rankings.systems.keizer.standings import load_season


@dataclass(frozen=True)
class Proposal:
    """A pairing with what the page shows around it."""

    number: int
    pairing: pairer.PairingOut | None
    unpaired: tuple[str, ...]  # when no pairing exists
    ranks: dict[str, int]  # places in the list the evening is paired from
    values: dict[str, int]
    history: pairer.History
    present: tuple[str, ...]
    volunteer: str | None

    def as_json(self) -> dict[str, Any]:
        assert self.pairing is not None
        return self.pairing.as_json()


def rules_of(season: Season) -> pairer.Rules:
    settings = parse_settings(season.settings)
    return pairer.Rules(
        rematch_gap=settings.rematch_gap,
        max_meetings=settings.max_meetings,
        bye_gap=settings.bye_gap,
        colour_balance=settings.colour_balance,
        colour_run=settings.colour_run,
    )


def propose(
    season: Season, *, manual: list[tuple[str, str]] = (), number: int | None = None
) -> Proposal:
    """The pairing of the evening waiting for one (rules.md §4.3), or why there is none."""
    season_in, rounds = load_season(season)
    waiting = rounds[-1] if rounds and rounds[-1]["present"] else None
    if waiting is None or waiting["games"] or waiting["bye"]:
        raise ValidationError(
            _("No evening is waiting for its pairing: take the attendance of the next one first.")
        )
    if number is not None and waiting["number"] != number:
        raise ValidationError(
            _("Evening %(n)s is not the one waiting for its pairing (that is %(w)s).")
            % {"n": number, "w": waiting["number"]}
        )
    number = waiting["number"]
    counted = engine.counted_rounds(season_in.rounds)
    if len(counted) != number - 1:
        missing = len(counted) + 1
        raise ValidationError(
            _("Enter every result of evening %(n)s first: the pairing needs its list.")
            % {"n": missing}
        )
    out = engine.compute_season(replace(season_in, closed=False))
    listed = out.lists[number - 1]
    present = set(waiting["present"]) - season_in.withdrawn  # keizer-variants.md §2.8
    ranking = tuple(row.player for row in listed.rows if row.player in present)
    history = pairer.History(
        games=tuple(
            pairer.PastGame(r["number"], g["white"], g["black"])
            for r in rounds[: number - 1]
            for g in r["games"]
        ),
        byes=tuple((r["number"], p) for r in rounds[: number - 1] for p in r["bye"]),
    )
    volunteer = waiting["volunteer"] if waiting["volunteer"] in present else None
    try:
        pairing = pairer.pair_round(
            number=number,
            ranking=ranking,
            history=history,
            rules=rules_of(season),
            manual=manual,
            volunteer=volunteer,
        )
        unpaired: tuple[str, ...] = ()
    except pairer.NoPairing as exc:
        pairing, unpaired = None, exc.unpaired
    except ValueError as exc:  # manual pairs that are not two present players, once each
        raise ValidationError(str(exc)) from exc
    return Proposal(
        number=number,
        pairing=pairing,
        unpaired=unpaired,
        ranks={row.player: row.rank for row in listed.rows},
        values=listed.values(),
        history=history,
        present=ranking,
        volunteer=volunteer,
    )


def pair_next_round(season: Season, **options: Any) -> dict[str, Any]:
    """interchange.md's `pair_round` JSON for the evening waiting for its pairing."""
    proposal = propose(season, **options)
    if proposal.pairing is None:
        raise ValidationError(
            _(
                "No pairing exists, even with every rule relaxed. These players cannot be "
                "paired: %(players)s."
            )
            % {"players": ", ".join(proposal.unpaired)}
        )
    return proposal.as_json()


def save(season: Season, pairing: dict[str, Any]) -> None:
    """Store a pairing (the `pair_round` JSON) as the waiting evening's games and bye."""
    round_ = Round.objects.get(season=season, tournament=None, group=None, number=pairing["round"])
    keys = {p for pair in pairing["pairs"] for p in (pair["white"], pair["black"])}
    if pairing["bye"]:
        keys.add(pairing["bye"])
    players = {p.key: p for p in Player.objects.filter(series_id=season.series_id, key__in=keys)}
    round_pairing_save(
        round_=round_,
        pairs=[
            (players[pair["white"]], players[pair["black"]], pair["manual"])
            for pair in pairing["pairs"]
        ],
        bye=players[pairing["bye"]] if pairing["bye"] else None,
    )
