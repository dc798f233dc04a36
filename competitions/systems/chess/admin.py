"""Admin of chess groups: group players, and the inlines on the shared pages."""

from django.contrib import admin

from competitions.admin import HistoryAdmin, RoundEntryInline
from competitions.models import Group

from .models import GroupPlayer


class GroupInline(admin.TabularInline):
    model = Group
    fields = ["position", "name", "scale"]
    extra = 0
    show_change_link = True


class GroupPlayerInline(admin.TabularInline):
    model = GroupPlayer
    fields = ["position", "player", "player_class", "rating"]
    autocomplete_fields = ["player"]
    extra = 0


@admin.register(GroupPlayer)
class GroupPlayerAdmin(HistoryAdmin):
    list_display = ["player", "group", "group__tournament", "position", "player_class", "rating"]
    list_filter = ["group__tournament__season"]
    search_fields = ["player__name", "player__key", "group__name"]
    autocomplete_fields = ["group", "player"]
    list_select_related = ["player", "group__tournament"]


# The results a round holds, by the system of its season.

TOURNAMENT_INLINES = [GroupInline]
GROUP_INLINES = [GroupPlayerInline]
ROUND_INLINES = [RoundEntryInline]
