"""Admin of the bridge ladder's models, and its inlines on the shared round and entry pages."""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext as _

from competitions.admin import HistoryAdmin, RoundCopiedFromParentForm
from competitions.admin_lists import scope_filters

from .models import Challenge, ChallengeScore, Pool, PoolMember, StartElo


class PoolMemberForm(RoundCopiedFromParentForm):
    parent_field = "pool"

    class Meta:
        model = PoolMember
        fields = ["pool", "player", "position", "reason"]


class ChallengeScoreForm(forms.ModelForm):
    """IMPs only for a player of the challenge's round (the file export must import again)."""

    class Meta:
        model = ChallengeScore
        fields = ["challenge", "player", "imps"]

    def clean(self):
        cleaned = super().clean()
        challenge, player = cleaned.get("challenge"), cleaned.get("player")
        if challenge is not None and player is not None:
            if not PoolMember.objects.filter(round_id=challenge.round_id, player=player).exists():
                raise forms.ValidationError(
                    _("%(player)s is not in a pool of this round.") % {"player": player}
                )
        return cleaned


# The filters of the lists of pools and challenges: what holds a round, widest first.
ROUND_SCOPE = scope_filters(
    series="round__season__series", season="round__season", round="round__number"
)


class PoolInline(admin.TabularInline):
    model = Pool
    fields = ["number"]
    extra = 0
    show_change_link = True


class PoolMemberInline(admin.TabularInline):
    model = PoolMember
    form = PoolMemberForm
    fields = ["position", "player", "reason"]
    autocomplete_fields = ["player"]
    extra = 0


class ChallengeInline(admin.TabularInline):
    model = Challenge
    fields = ["number"]
    extra = 0
    show_change_link = True


class ChallengeScoreInline(admin.TabularInline):
    model = ChallengeScore
    form = ChallengeScoreForm
    fields = ["player", "imps"]
    autocomplete_fields = ["player"]
    extra = 0


@admin.register(Pool)
class PoolAdmin(HistoryAdmin):
    list_display = ["__str__", "round", "round__season"]
    list_filter = ROUND_SCOPE
    search_fields = ["round__season__name", "members__player__name"]
    autocomplete_fields = ["round"]
    list_select_related = ["round__season__series"]
    inlines = [PoolMemberInline]


@admin.register(PoolMember)
class PoolMemberAdmin(HistoryAdmin):
    form = PoolMemberForm
    list_display = ["player", "pool", "position", "reason", "round", "round__season"]
    list_filter = scope_filters(
        series="round__season__series",
        season="round__season",
        round="round__number",
        pool="pool__number",
    )
    search_fields = ["player__name", "player__key", "reason"]
    autocomplete_fields = ["pool", "player"]
    list_select_related = ["player", "pool", "round__season__series"]


@admin.register(Challenge)
class ChallengeAdmin(HistoryAdmin):
    list_display = ["__str__", "round", "round__season"]
    list_filter = ROUND_SCOPE
    search_fields = ["round__season__name", "scores__player__name"]
    autocomplete_fields = ["round"]
    list_select_related = ["round__season__series"]
    inlines = [ChallengeScoreInline]


@admin.register(ChallengeScore)
class ChallengeScoreAdmin(HistoryAdmin):
    form = ChallengeScoreForm
    list_display = ["player", "imps", "challenge", "challenge__round", "challenge__round__season"]
    list_filter = scope_filters(
        series="challenge__round__season__series",
        season="challenge__round__season",
        round="challenge__round__number",
        challenge="challenge__number",
    )
    search_fields = ["player__name", "player__key"]
    autocomplete_fields = ["challenge", "player"]
    list_select_related = ["player", "challenge__round__season__series"]


class StartEloInline(admin.TabularInline):
    model = StartElo
    fields = ["start_elo"]
    extra = 0


ROUND_INLINES = [PoolInline, ChallengeInline]
ENTRY_INLINES = [StartEloInline]
