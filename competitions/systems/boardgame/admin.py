"""Admin of the board-game circuit's models, and its inlines on the shared pages."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from competitions.admin import HistoryAdmin, RoundCopiedFromParentForm
from competitions.admin_lists import scope_filters

from .models import FinalTournament, HistoricTotal, PreviousParticipants, Seat, Table


class SeatForm(RoundCopiedFromParentForm):
    parent_field = "table"

    class Meta:
        model = Seat
        fields = ["table", "player", "rank"]


class HistoricTotalInline(admin.TabularInline):
    model = HistoricTotal
    fields = ["label", "player", "points"]
    autocomplete_fields = ["player"]
    extra = 0


class FinalTournamentInline(admin.TabularInline):
    """The season's final tournament (at most one), chosen among its tournaments."""

    model = FinalTournament
    fk_name = "season"
    fields = ["tournament"]
    autocomplete_fields = ["tournament"]
    extra = 0


class PreviousParticipantsInline(admin.TabularInline):
    model = PreviousParticipants
    fields = ["previous_participants"]
    extra = 0


class InFinalFilter(admin.SimpleListFilter):
    """Rows of the final tournament, or of the regular ones."""

    title = _("final tournament")
    parameter_name = "final"

    def lookups(self, request, model_admin):
        return [("yes", _("Yes")), ("no", _("No"))]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(round__tournament__circuit_final__isnull=self.value() == "no")
        return queryset


# The filters of the lists of tables and seats: what holds a round, widest first.
ROUND_SCOPE = scope_filters(
    series="round__season__series",
    season="round__season",
    tournament="round__tournament",
    round="round__number",
)


class TableInline(admin.TabularInline):
    model = Table
    fields = ["number", "game"]
    extra = 0
    show_change_link = True


class SeatInline(admin.TabularInline):
    model = Seat
    form = SeatForm
    fields = ["player", "rank"]
    autocomplete_fields = ["player"]
    extra = 0
    min_num = 2  # rules.md §1: a table has at least 2 players
    validate_min = True


@admin.register(HistoricTotal)
class HistoricTotalAdmin(HistoryAdmin):
    list_display = ["player", "label", "points", "season"]
    list_filter = [*scope_filters(series="season__series", season="season"), "label"]
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["season", "player"]
    list_select_related = ["player", "season__series"]


@admin.register(Table)
class TableAdmin(HistoryAdmin):
    list_display = ["__str__", "round__tournament", "game", "round__season"]
    list_filter = [*ROUND_SCOPE, InFinalFilter]
    search_fields = ["game", "round__tournament__name", "seats__player__name"]
    autocomplete_fields = ["round"]
    list_select_related = ["round__tournament", "round__season__series"]
    inlines = [SeatInline]

    def get_queryset(self, request):
        # __str__ shows the round, in autocomplete answers too. (A queryset that already
        # selects related rows makes the changelist skip list_select_related, hence all here.)
        return super().get_queryset(request).select_related(*self.list_select_related)


@admin.register(Seat)
class SeatAdmin(HistoryAdmin):
    form = SeatForm
    list_display = ["player", "rank", "table", "round__tournament", "round__season"]
    list_filter = [*ROUND_SCOPE, InFinalFilter]
    search_fields = ["player__name", "player__key", "table__game", "round__tournament__name"]
    autocomplete_fields = ["table", "player"]
    list_select_related = ["player", "table__round", "round__tournament", "round__season__series"]


SEASON_INLINES = [HistoricTotalInline, FinalTournamentInline, PreviousParticipantsInline]
ROUND_INLINES = [TableInline]
