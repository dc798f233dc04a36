"""Form widgets shared by the systems' manager forms."""

from django import forms
from django.forms.utils import flatatt
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe


class DateInput(forms.DateInput):
    """A browser's date field (`type="date"`), its value always written as 2025-11-30: Django
    writes it in the page language's format ("30-11-2025" in Dutch), which the field refuses,
    so it showed empty and a saved form lost the date. (A posted ISO date is read in every
    language.) Named DateInput so that crispy-forms gives it the same CSS class."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


def _grouped(choices: list) -> bool:
    """Whether a list of choices has groups ("Pool 1": [...]), which these widgets leave to
    Django's own rendering."""
    return any(isinstance(label, (list, tuple)) for _value, label in choices)


class Select(forms.Select):
    """Django's Select for a long flat list (every player of a ladder of 400 pools, twice on
    one page) that writes its options in one pass, where Django renders a template per option:
    2000 options took a quarter of a second. The same element, attributes and options as
    Django's (tests/competitions/test_widgets.py compares them); a list with groups, or a
    select of several, is left to Django. Named Select so that crispy-forms, which adds the
    widget's class name as a CSS class, gives the page the same HTML as Django's."""

    def render(self, name, value, attrs=None, renderer=None):
        choices = list(self.choices)  # once: a model field's choices are a query each time
        if self.allow_multiple_selected or _grouped(choices):
            return super().render(name, value, attrs, renderer)
        chosen = set(self.format_value(value))
        found = False
        parts = [f'<select name="{escape(name)}"{flatatt(self.build_attrs(self.attrs, attrs))}>']
        for option, label in choices:
            text = "" if option is None else str(option)
            selected = not found and text in chosen  # the first match only, as Django
            found = found or selected
            parts.append(
                f'<option value="{escape(text)}"{" selected" if selected else ""}>'
                f"{conditional_escape(label)}</option>"
            )
        parts.append("</select>")
        return mark_safe("".join(parts))  # every value above escaped (flatatt escapes its own)


class CheckboxList(forms.CheckboxSelectMultiple):
    """A flat list of checkboxes (every player of a ladder of 400 pools, to pick its leavers)
    written in one pass, with the markup crispy-forms' Bootstrap 5 template gives each option
    (`templates/competitions/_checkbox_list.html` writes the field around it). crispy renders
    templates per option: with 2000 options the next round's page took 270 ms, with this 137
    ms (in process). The same inputs, ids and labels as crispy's
    (tests/competitions/test_widgets.py compares them); a list with groups is left to Django."""

    def render(self, name, value, attrs=None, renderer=None):
        choices = list(self.choices)
        if _grouped(choices):
            return super().render(name, value, attrs, renderer)
        attrs = self.build_attrs(self.attrs, attrs)
        base = attrs.get("id")
        invalid = " is-invalid" if attrs.get("aria-invalid") == "true" else ""
        chosen = set(self.format_value(value))
        head = (
            '<div class="form-check"><input type="checkbox" '
            f'class="form-check-input{invalid}" name="{escape(name)}" value="'
        )
        parts = ["<div>"]
        for index, (option, label) in enumerate(choices):
            text = "" if option is None else str(option)
            checked = " checked" if text in chosen else ""
            if base:
                option_id = escape(f"{base}_{index}")
                ids, label_for = f' id="{option_id}"', f' for="{option_id}"'
            else:
                ids = label_for = ""
            parts.append(
                f'{head}{escape(text)}"{ids}{checked}><label{label_for} class="form-check-label">'
                f"{conditional_escape(label)}</label></div>"
            )
        parts.append("</div>")
        return mark_safe("".join(parts))  # every value above escaped
