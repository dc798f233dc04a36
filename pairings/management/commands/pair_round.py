"""`manage.py pair_round SERIES SEASON [--save]` (interchange.md): pairs the next round of a
season from the attendance stored for it and prints the pairing JSON; `--save` stores it.

System-neutral: it dispatches through the season's system spec (`pairing`). It pairs a system
whose pairing is a `SeasonPairing`; a system that does not pair its rounds, or pairs them
elsewhere (`PairedElsewhere`: per group, on the group's page), gets one clear line."""

import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _

from competitions.management.commands.export_competition import find_season
from competitions.registry import get_system
from pairings.systems import PairedElsewhere, SeasonPairing


class Command(BaseCommand):
    help = "Pair the next round of a season from its stored attendance and print the JSON."

    def add_arguments(self, parser):
        parser.add_argument("series")
        parser.add_argument("season")
        parser.add_argument("--save", action="store_true", help="store the pairing")

    def handle(self, *args, **options):
        season = find_season(options["series"], options["season"])
        spec = get_system(season.system)
        if isinstance(spec.pairing, PairedElsewhere):
            raise CommandError(
                _("%(system)s seasons are not paired by pair_round: %(where)s.")
                % {"system": spec.name, "where": spec.pairing.where}
            )
        if not isinstance(spec.pairing, SeasonPairing):
            raise CommandError(
                _("%(system)s seasons are not paired by this application") % {"system": spec.name}
            )
        try:
            with transaction.atomic():
                pairing = spec.pairing.pair_next_round(season)
                if options["save"]:
                    spec.pairing.save(season, pairing)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(json.dumps(pairing, ensure_ascii=False))
