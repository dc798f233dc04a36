"""Why a pair of the Keizer preview is not the nearest one (rules.md §4.3 step 3, issue 46):
one line for each player ranked between the two, "Not <name> (<place>): <reason>", from the
reasons the pairer gives (`pairings.engines.keizer.PassedOver`)."""

from collections.abc import Callable

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from competitions.text import html_message, isolated
from pairings.engines import keizer as pairer

RUN_PHRASES = {
    pairer.WHITE: lambda: _("%(name)s would get white %(n)s times in a row"),
    pairer.BLACK: lambda: _("%(name)s would get black %(n)s times in a row"),
}
BOTH_RUN_PHRASES = {
    pairer.WHITE: lambda: _("both would get white %(n)s times in a row"),
    pairer.BLACK: lambda: _("both would get black %(n)s times in a row"),
}
BALANCE_PHRASES = {
    pairer.WHITE: lambda: _("%(name)s would have %(n)s more whites than blacks"),
    pairer.BLACK: lambda: _("%(name)s would have %(n)s more blacks than whites"),
}
BOTH_BALANCE_PHRASES = {
    pairer.WHITE: lambda: _("both would have %(n)s more whites than blacks"),
    pairer.BLACK: lambda: _("both would have %(n)s more blacks than whites"),
}


def _clashes(clashes: tuple[pairer.ColourClash, ...], name: Callable[[str], str]) -> SafeString:
    """The colour limits a pair would break, one clause each; "both" where the two players
    would break the same one."""
    groups: dict[tuple[str, str, int], list[str]] = {}
    for clash in clashes:
        groups.setdefault((clash.colour, clash.limit, clash.value), []).append(clash.player)
    clauses = []
    for (colour, limit, value), players in groups.items():
        n = abs(value)
        if limit == pairer.RUN:
            single, both = RUN_PHRASES[colour], BOTH_RUN_PHRASES[colour]
        else:
            single, both = BALANCE_PHRASES[colour], BOTH_BALANCE_PHRASES[colour]
        if len(players) > 1:
            clauses.append(html_message(both(), {"n": n}))
        else:
            clauses.append(html_message(single(), {"name": isolated(name(players[0])), "n": n}))
    return SafeString(", ".join(clauses))


def reason(why: pairer.Refusal, name: Callable[[str], str], board_of: dict[str, int]) -> str:
    """The reason as the preview says it (HTML: names are isolated)."""
    if why.rule == pairer.MET_RECENTLY:
        return _("met in round %(rounds)s") % {"rounds": why.round}
    if why.rule == pairer.MET_OFTEN:
        return _("they have met %(n)s times already") % {"n": why.meetings}
    if why.rule == pairer.COLOURS:
        clashes = _clashes(why.clashes, name)
        if why.round is None:
            return clashes
        return html_message(
            _("a rematch takes the colours of round %(round)s reversed: %(clashes)s"),
            {"round": why.round, "clashes": clashes},
        )
    if why.rule in (pairer.PAIRED_HIGHER, pairer.MANUAL):
        return _("already on board %(board)s") % {"board": board_of[why.partner]}
    if why.rule == pairer.HAS_BYE:
        return _("has the bye")
    return _("allowed, but then the others could not all be paired")


def passed_over_lines(
    pair: pairer.PairOut,
    *,
    name: Callable[[str], str],
    ranks: dict[str, int],
    board_of: dict[str, int],
) -> list[SafeString]:
    """For a pair that is not the nearest allowed one, why each player ranked between its two
    was passed over; nothing for the nearest (everyone between was paired already)."""
    if pair.nearest:
        return []
    return [
        html_message(
            _("Not %(name)s (%(place)s): %(reason)s"),
            {
                "name": isolated(name(passed.player)),
                "place": ranks.get(passed.player, ""),
                "reason": reason(passed.why, name, board_of),
            },
        )
        for passed in pair.passed_over
    ]
