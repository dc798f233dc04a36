"""Move the facts that 0005 drops to their one place:

- a group player's birth year to the player (the first one given wins);
- a tournament's county_championship flag to its options;
- every season gets its URL slug;
- game colours and attendance to round entries (one per player and round).
"""

import re

from django.db import migrations
from django.utils.text import slugify

RESERVED = {"players", "seasons", "settings", "help"}


def forwards(apps, schema_editor):
    Player = apps.get_model("competitions", "Player")
    GroupPlayer = apps.get_model("competitions", "GroupPlayer")
    Tournament = apps.get_model("competitions", "Tournament")
    Season = apps.get_model("competitions", "Season")
    Game = apps.get_model("competitions", "Game")
    Attendance = apps.get_model("competitions", "Attendance")
    RoundEntry = apps.get_model("competitions", "RoundEntry")

    for gp in GroupPlayer.objects.exclude(born=None).order_by("pk"):
        Player.objects.filter(pk=gp.player_id, born=None).update(born=gp.born)
    for t in Tournament.objects.filter(county_championship=True):
        t.options = {**(t.options or {}), "county_championship": True}
        t.save(update_fields=["options"])
    taken: dict[int, set[str]] = {}
    for season in Season.objects.order_by("series_id", "pk"):
        base = slugify(re.sub(r"[\W_]+", "-", season.label)).strip("-")[:40] or "season"
        if base in RESERVED:
            base = f"{base}-season"
        slug, n, used = base, 2, taken.setdefault(season.series_id, set())
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        season.slug = slug
        season.save(update_fields=["slug"])
    entries = []
    seen: set[tuple[int, int]] = set()
    for game in Game.objects.order_by("round_id", "pk"):
        for colour, player_id in (("white", game.white_id), ("black", game.black_id)):
            if (game.round_id, player_id) in seen:
                continue  # a player in two games of a round: the first one stays his
            seen.add((game.round_id, player_id))
            entries.append(
                RoundEntry(
                    round_id=game.round_id,
                    player_id=player_id,
                    status="played",
                    game_id=game.pk,
                    colour=colour,
                )
            )
    for a in Attendance.objects.order_by("round_id", "pk"):
        if (a.round_id, a.player_id) in seen:
            continue  # "present" and a game: the game says it
        seen.add((a.round_id, a.player_id))
        entries.append(
            RoundEntry(
                round_id=a.round_id,
                player_id=a.player_id,
                status=a.status,
                volunteer_bye=a.volunteer_bye,
            )
        )
    RoundEntry.objects.bulk_create(entries)


class Migration(migrations.Migration):
    dependencies = [("competitions", "0003_extension_point_add")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
