"""Admin of chess groups: group players, and the inlines on the shared pages."""

from django.contrib import admin

from competitions.admin import HistoryAdmin, RoundEntryInline
from competitions.admin_lists import scope_filters
from competitions.models import Game, Group, RoundEntry

from .models import GroupPlayer


class GroupInline(admin.TabularInline):
    model = Group
    fields = ["position", "name", "scale"]
    extra = 0
    show_change_link = True


class GroupPlayerInline(admin.TabularInline):
    model = GroupPlayer
    fields = ["position", "player", "player_class", "rating", "beginner"]
    autocomplete_fields = ["player"]
    extra = 0


@admin.register(GroupPlayer)
class GroupPlayerAdmin(HistoryAdmin):
    list_display = [
        "player",
        "group",
        "group__tournament",
        "group__tournament__season",
        "position",
        "player_class",
        "rating",
        "beginner",
    ]
    list_filter = scope_filters(
        series="group__tournament__season__series",
        season="group__tournament__season",
        tournament="group__tournament",
        group="group",
    )
    search_fields = ["player__name", "player__key", "group__name", "group__tournament__name"]
    autocomplete_fields = ["group", "player"]
    list_select_related = ["player", "group__tournament__season__series"]


# The shared models the chess section of the admin index lists (filtered to chess).
SHARED_MODELS = {Group: None, Game: None, RoundEntry: None}

# The results a round holds, by the system of its season.

TOURNAMENT_INLINES = [GroupInline]
GROUP_INLINES = [GroupPlayerInline]
ROUND_INLINES = [RoundEntryInline]
