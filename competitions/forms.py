"""Forms of the manager pages (crispy-forms, Bootstrap 5)."""

from django import forms
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _l

from .models import Club, Series
from .registry import BOOL, CHOICE, INT, NUMBER, SettingsSpec


class SeasonForm(forms.Form):
    label = forms.CharField(label=_l("Season"), max_length=32, help_text=_l("A year, e.g. 2026."))
    name = forms.CharField(label=_l("Name"), max_length=200, required=False)


class TournamentForm(forms.Form):
    name = forms.CharField(
        label=_l("Name"),
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": _l("e.g. Mechelen")}),
    )
    date = forms.DateField(
        label=_l("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class ClubForm(forms.Form):
    name = forms.CharField(label=_l("Club name"), max_length=200)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_l("Name"), max_length=200)
    club = forms.ModelChoiceField(label=_l("Club"), queryset=Club.objects.none(), required=False)

    def __init__(self, *args, series: Series, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = series.clubs.order_by("name")


class SettingsForm(forms.Form):
    """A season's settings; stores only the values that differ from the defaults."""

    spec: SettingsSpec

    @classmethod
    def initial_for(cls, raw: dict) -> dict:
        return cls.spec.resolved(raw)

    def clean(self):
        data = super().clean()
        if not self.errors:
            for path, message in self.spec.validate(self.to_settings()):
                self.add_error(path if path in self.fields else None, message)
        return data

    def to_settings(self) -> dict:
        return {
            s.name: self.cleaned_data[s.name]
            for s in self.spec.fields
            if s.name in self.cleaned_data and self.cleaned_data[s.name] != s.default
        }


def _setting_field(setting) -> forms.Field:
    common = {"label": setting.label, "help_text": setting.help_text}
    if setting.kind == INT:
        return forms.IntegerField(min_value=setting.minimum, max_value=setting.maximum, **common)
    if setting.kind == NUMBER:
        return forms.FloatField(min_value=setting.minimum, max_value=setting.maximum, **common)
    if setting.kind == BOOL:
        return forms.BooleanField(required=False, **common)
    if setting.kind == CHOICE:
        return forms.ChoiceField(choices=setting.choices, **common)
    return forms.CharField(max_length=setting.max_length, required=False, **common)


def settings_form_for(spec: SettingsSpec) -> type[SettingsForm]:
    """The settings form of a system: its own (`spec.form`), or one built from its plain
    settings, with their bounds."""
    if spec.form:
        return import_string(spec.form)
    fields = {s.name: _setting_field(s) for s in spec.fields}
    return type("SystemSettingsForm", (SettingsForm,), {"spec": spec, **fields})
