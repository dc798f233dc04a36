"""An imported yearly total is never negative (issue 45: a negative one was accepted); the
database refuses one from now on. A stored negative total is named before the constraint is
added, for the administrator to correct."""

import django.core.validators
from django.db import migrations, models


def refuse_negative(apps, schema_editor):
    HistoricTotal = apps.get_model("competitions", "HistoricTotal")
    found = [
        f"season {row.season_id}, {row.label}, player {row.player_id}: {row.points}"
        for row in HistoricTotal.objects.filter(points__lt=0)[:20]
    ]
    if found:
        raise RuntimeError(
            "Negative imported yearly totals; correct them (the admin's imported yearly "
            "totals) and migrate again: " + "; ".join(found)
        )


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0018_chess_group_player_tournament_required'),
    ]

    operations = [
        migrations.AlterField(
            model_name='historicalhistorictotal',
            name='points',
            field=models.FloatField(validators=[django.core.validators.MinValueValidator(0)], verbose_name='points'),
        ),
        migrations.AlterField(
            model_name='historictotal',
            name='points',
            field=models.FloatField(validators=[django.core.validators.MinValueValidator(0)], verbose_name='points'),
        ),
        migrations.RunPython(refuse_negative, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='historictotal',
            constraint=models.CheckConstraint(condition=models.Q(('points__gte', 0)), name='historic_total_not_negative'),
        ),
    ]
