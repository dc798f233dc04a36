"""Admin of the Keizer competition: an evening's games and what each player did (shared models).
Its results are the shared games and round entries, which have their own admin pages too."""

from django.contrib import admin

from competitions.admin import RoundEntryInline
from competitions.models import Game


class GameInline(admin.TabularInline):
    """An evening's games by board: the result can be corrected here; the players are on the
    game's own page."""

    model = Game
    fields = ["board", "result", "manual"]
    extra = 0
    show_change_link = True


ROUND_INLINES = [GameInline, RoundEntryInline]
