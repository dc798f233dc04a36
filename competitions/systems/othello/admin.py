"""Admin of the Othello Grand Prix's result model, and its inline on the tournament page."""

from django.contrib import admin

from competitions.admin import HistoryAdmin
from competitions.admin_lists import scope_filters

from .models import Placement


class PlacementInline(admin.TabularInline):
    model = Placement
    fields = ["place", "player", "country", "nordic", "ffo", "provisional", "uncertainty"]
    autocomplete_fields = ["player"]
    extra = 0


@admin.register(Placement)
class PlacementAdmin(HistoryAdmin):
    list_display = [
        "place",
        "player",
        "tournament",
        "tournament__season",
        "country",
        "nordic",
        "ffo",
        "provisional",
    ]
    list_filter = [
        *scope_filters(
            series="tournament__season__series",
            season="tournament__season",
            tournament="tournament",
        ),
        "provisional",
        "country",
    ]
    search_fields = ["player__name", "player__key", "tournament__name"]
    autocomplete_fields = ["tournament", "player"]
    list_select_related = ["player", "tournament__season__series"]


TOURNAMENT_INLINES = [PlacementInline]
