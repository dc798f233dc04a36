"""`manage.py load_demo`: demo competitions and two demo logins, for `make run`.

Idempotent and quick: a series whose demo seasons are stored already is left alone (`--reset`
imports them again); the two users are created, or get their known password back, every time.
Refuses to run in production, where a known password would be a hole, unless forced.
"""

import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from competitions.interchange import FileError
from competitions.models import Series
from competitions.registry import DemoSeries, all_systems
from rankings.imports import import_competition

ADMIN_USER = "admin"
MANAGER_USER = "secretary"
PASSWORD = "clubsite-demo"  # a demo password, printed on purpose


class Command(BaseCommand):
    help = "Load demo competitions and create a demo admin and a demo competition manager."

    def add_arguments(self, parser):
        parser.add_argument(
            "--reset", action="store_true", help="import the demo seasons again even if stored"
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="run even with DJANGO_ENV=production (creates users with a known password)",
        )

    def handle(self, *args, **options):
        if settings.PRODUCTION and not options["force"]:
            raise CommandError(
                _(
                    "This is a production site: load_demo would create users with a known "
                    "password. Use --force if you really mean it."
                )
            )
        demos = [(spec.key, spec.demo) for spec in all_systems() if spec.demo is not None]
        with transaction.atomic():
            series = [self._load(key, demo, reset=options["reset"]) for key, demo in demos]
            self._users(series)
        port = os.environ.get("PORT") or "8000"
        self.stdout.write(
            _("Demo admin:    %(url)s  user %(user)s  password %(password)s")
            % {
                "url": f"http://127.0.0.1:{port}{reverse('admin:index')}",
                "user": ADMIN_USER,
                "password": PASSWORD,
            }
        )
        self.stdout.write(
            _("Demo manager:  user %(user)s  password %(password)s (manages %(series)s)")
            % {
                "user": MANAGER_USER,
                "password": PASSWORD,
                # Quoted: a name may hold a comma ("Schaakclub De Toren, interne competitie").
                "series": ", ".join(f"“{s.name}”" for s in series) or "-",
            }
        )

    def _load(self, system: str, demo: DemoSeries, *, reset: bool) -> Series:
        # Created here so the series gets its own name, not the first file's season name.
        series, _created = Series.objects.get_or_create(
            slug=demo.slug, defaults={"name": demo.name, "system": system}
        )
        if series.system != system:
            raise CommandError(
                _("Series %(series)s exists but is a %(system)s series, not %(demo)s.")
                % {"series": demo.slug, "system": series.system, "demo": system}
            )
        if not reset and series.seasons.filter(label=demo.last_season).exists():
            self.stdout.write(
                _("%(name)s: demo data present, skipped (--reset imports it again).")
                % {"name": series.name}
            )
            return series
        for data in demo.files():
            try:
                season = import_competition(data, replace=True)
            except FileError as exc:
                raise CommandError(
                    _("demo file %(series)s %(season)s: %(error)s")
                    % {"series": data.get("series"), "season": data.get("season"), "error": exc}
                ) from exc
            self.stdout.write(
                _("Imported %(series)s %(season)s.")
                % {"series": series.slug, "season": season.label}
            )
        return series

    def _users(self, series: list[Series]) -> None:
        users = get_user_model()
        admin, _created = users.objects.get_or_create(
            username=ADMIN_USER, defaults={"email": "admin@example.org"}
        )
        admin.is_staff = admin.is_superuser = admin.is_active = True
        admin.set_password(PASSWORD)
        admin.save()
        manager, _created = users.objects.get_or_create(username=MANAGER_USER)
        manager.is_staff = manager.is_superuser = False
        manager.is_active = True
        manager.set_password(PASSWORD)
        manager.save()
        for s in series:
            s.managers.add(manager)
