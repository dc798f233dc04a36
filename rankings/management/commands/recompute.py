from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from competitions.models import Season
from competitions.registry import find_system
from rankings.services import season_recompute


class Command(BaseCommand):
    help = (
        "Recompute the standings of the named seasons (all without arguments; only those whose "
        "standings are older than their data with --stale) in this process."
    )

    def add_arguments(self, parser):
        parser.add_argument("series", nargs="?")
        parser.add_argument("season", nargs="?")
        parser.add_argument(
            "--stale", action="store_true", help="only seasons with stale standings"
        )
        parser.add_argument(
            "--rewrite",
            action="store_true",
            help="delete the stored standings and write them all again (a repair after they "
            "were changed by hand in the database; a recompute otherwise writes only what "
            "differs from them)",
        )

    def handle(self, *args, **options):
        seasons = Season.objects.select_related("series").order_by("series__slug", "label")
        if options["series"]:
            seasons = seasons.filter(series__slug=options["series"])
            if not seasons.exists():
                raise CommandError(_("no series %(series)s") % {"series": options["series"]})
        if options["season"]:
            seasons = seasons.filter(label=options["season"])
            if not seasons.exists():
                raise CommandError(
                    _("no season %(season)s in series %(series)s")
                    % {"season": options["season"], "series": options["series"]}
                )
        done = 0
        for season in seasons:
            spec = find_system(season.system)
            if spec is None or not spec.available:
                continue
            if options["stale"] and not season.stale:
                continue
            season_recompute(
                season_id=season.pk, force=not options["stale"], rewrite=options["rewrite"]
            )
            done += 1
            self.stdout.write(
                _("Recomputed %(series)s %(season)s.")
                % {"series": season.series.slug, "season": season.label}
            )
        self.stdout.write(_("%(n)s season(s) recomputed.") % {"n": done})
