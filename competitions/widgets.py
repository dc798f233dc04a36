"""Form widgets shared by the systems' manager forms."""

from django import forms
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe


class DateInput(forms.DateInput):
    """A browser's date field (`type="date"`), its value always written as 2025-11-30: Django
    writes it in the page language's format ("30-11-2025" in Dutch), which the field refuses,
    so it showed empty and a saved form lost the date. (A posted ISO date is read in every
    language.) Named DateInput so that crispy-forms gives it the same CSS class."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


class Select(forms.Select):
    """Django's Select for a long flat list (every player of a ladder of 400 pools, twice on
    one page) that writes its options in one pass, where Django renders a template per option:
    2000 options took a quarter of a second. The same element, attributes and options as
    Django's (tests/competitions/test_widgets.py compares them); a list with groups, or a
    select of several, is left to Django. Named Select so that crispy-forms, which adds the
    widget's class name as a CSS class, gives the page the same HTML as Django's."""

    def render(self, name, value, attrs=None, renderer=None):
        choices = list(self.choices)  # once: a model field's choices are a query each time
        if self.allow_multiple_selected or any(
            isinstance(label, (list, tuple)) for _value, label in choices
        ):
            return super().render(name, value, attrs, renderer)
        chosen = set(self.format_value(value))
        found = False
        options = []
        for option, label in choices:
            text = "" if option is None else str(option)
            selected = not found and text in chosen  # the first match only, as Django
            found = found or selected
            options.append((text, mark_safe(" selected") if selected else "", label))
        return format_html(
            '<select name="{}"{}>{}</select>',
            name,
            flatatt(self.build_attrs(self.attrs, attrs)),
            format_html_join("", '<option value="{}"{}>{}</option>', options),
        )
