import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from competitions.interchange import export_competition
from competitions.models import Season


def find_season(series: str, season: str) -> Season:
    found = (
        Season.objects.select_related("series").filter(series__slug=series, label=season).first()
    )
    if found is None:
        raise CommandError(
            _("no season %(season)s in series %(series)s") % {"season": season, "series": series}
        )
    return found


class Command(BaseCommand):
    help = "Write a season's competition file (interchange.md) to stdout."

    def add_arguments(self, parser):
        parser.add_argument("series")
        parser.add_argument("season")

    def handle(self, *args, **options):
        season = find_season(options["series"], options["season"])
        self.stdout.write(json.dumps(export_competition(season), ensure_ascii=False, indent=2))
