"""competitions.widgets: Select writes Django's select in one pass; DateInput writes ISO dates."""

import pytest
from django import forms
from django.test.html import parse_html
from hypothesis import given
from hypothesis import strategies as st

from competitions import widgets

AWKWARD = ["", "0", "12", "<b>", 'a "quote"', "=SUM(A1)", "Ωmega", "王芳", "a & b", "None"]


def both(choices, value, attrs=None):
    """Django's rendering and ours, of the same field, as crispy renders it (with attrs)."""
    attrs = attrs or {"id": "id_first", "class": "select form-select"}
    ours = widgets.Select(choices=choices).render("first", value, attrs)
    django = forms.Select(choices=choices).render("first", value, attrs)
    return parse_html(ours), parse_html(django)


@pytest.mark.parametrize("value", [None, "", 3, "3", 0, "<b>", "=SUM(A1)", "王芳", "missing"])
def test_the_same_select_as_django_s(value):
    choices = [("", "---------"), (0, "Pool 1: 0"), (3, "Pool 1: <Ann & Bo>")]
    choices += [(text, f"Pool 2: {text}") for text in AWKWARD if text]
    ours, django = both(choices, value)
    assert ours == django


def test_required_and_aria_attributes_pass_through():
    attrs = {"id": "id_x", "required": True, "aria-invalid": "true", "disabled": False}
    ours, django = both([(1, "one"), (2, "two")], 2, attrs)
    assert ours == django
    html = widgets.Select(choices=[(1, "one")]).render("x", None, attrs)
    assert " required" in html and "disabled" not in html


def test_only_the_first_of_equal_values_is_selected():
    ours, django = both([(1, "one"), ("1", "again")], "1")
    assert ours == django
    assert str(ours).count("selected") == 1


def test_a_list_with_groups_is_left_to_django():
    choices = [("Pool 1", [(1, "one"), (2, "two")]), ("Pool 2", [(3, "three")])]
    ours, django = both(choices, 3)
    assert ours == django and "optgroup" in str(ours)


@pytest.mark.parametrize("placeholder", [False, True])
def test_a_bound_field_renders_through_the_widget(placeholder):
    """Through a form (which adds the id, and `required` when the list starts with an empty
    choice): as Django's."""
    rendered = []
    for widget in (widgets.Select, forms.Select):

        class F(forms.Form):
            first = forms.TypedChoiceField(coerce=int, widget=widget)

        form = F({"first": "7"})
        form.fields["first"].choices = [("", "–")] * placeholder + [(5, "five"), (7, "seven <7>")]
        assert form.is_valid() and form.cleaned_data["first"] == 7
        rendered.append(str(form["first"]))
    ours, django = rendered
    assert parse_html(ours) == parse_html(django)
    assert '<option value="7" selected>seven &lt;7&gt;</option>' in ours
    assert 'id="id_first"' in ours and ("required" in ours) == placeholder


@given(
    st.lists(st.tuples(st.sampled_from(AWKWARD + ["1", "2"]), st.text(max_size=12)), max_size=8),
    st.one_of(st.none(), st.sampled_from(AWKWARD + ["1", "2"])),
)
def test_any_flat_list_renders_as_django_s(choices, value):
    ours, django = both(choices, value)
    assert ours == django


@pytest.mark.parametrize("language", ["en", "nl", "sv", "nb"])
def test_a_date_field_shows_its_date_as_the_browser_reads_it_in_every_language(language):
    """Django writes a date in the page language's format ("30-11-2025" in Dutch), which a
    browser's date field refuses: the field showed empty and a saved form lost the date."""
    import datetime

    from django.utils import translation

    class Form(forms.Form):
        date = forms.DateField(widget=widgets.DateInput)

    with translation.override(language):
        html = str(Form(initial={"date": datetime.date(2025, 11, 30)})["date"])
        bound = Form({"date": "2025-11-30"})
        assert bound.is_valid()  # and what the browser sends back is read
    assert 'type="date"' in html and 'value="2025-11-30"' in html
    assert bound.cleaned_data["date"] == datetime.date(2025, 11, 30)


def _checkbox_fields(choices, data, widget, *, required=False, help_text=""):
    class F(forms.Form):
        leaving = forms.TypedMultipleChoiceField(
            label="Leave <the> ladder",
            coerce=str,
            required=required,
            help_text=help_text,
            widget=widget,
        )

    form = F(data)
    form.fields["leaving"].choices = choices
    form.is_valid()
    return form


def checkbox_lists(choices, data=None, **kwargs):
    """crispy's rendering of a Django list of checkboxes, and ours through its include."""
    from django.template import Context, Template

    theirs = Template("{% load crispy_forms_tags %}{{ form.leaving|as_crispy_field }}").render(
        Context({"form": _checkbox_fields(choices, data, forms.CheckboxSelectMultiple, **kwargs)})
    )
    ours = Template('{% include "competitions/_checkbox_list.html" with field=form.leaving %}')
    ours = ours.render(
        Context({"form": _checkbox_fields(choices, data, widgets.CheckboxList, **kwargs)})
    )
    return parse_html(ours), parse_html(theirs), ours


@pytest.mark.parametrize(
    "data", [None, {"leaving": []}, {"leaving": ["0"]}, {"leaving": ["12", "=SUM(A1)", "王芳"]}]
)
def test_the_same_checkbox_list_as_crispy_s(data):
    choices = [(text, f"Player <{text}> & co") for text in AWKWARD if text]
    ours, theirs, html = checkbox_lists(choices, data)
    assert ours == theirs
    assert html.count('type="checkbox"') == len(choices)
    assert html.count(" checked") == len((data or {}).get("leaving", []))
    assert "Player &lt;&lt;b&gt;&gt; &amp; co" in html  # labels escaped


def test_a_required_checkbox_list_with_help_is_written_as_crispy_s():
    ours, theirs, _html = checkbox_lists([("a", "A"), ("b", "B")], None, required=True)
    assert ours == theirs
    ours, theirs, html = checkbox_lists([("a", "A")], None, help_text="Tick who <leaves>.")
    assert "Tick who <leaves>." in html  # help text is the form's own, marked safe as crispy's
    assert 'id="id_leaving_0"' in html and 'for="id_leaving_0"' in html


def test_a_checkbox_list_with_an_error_shows_it_and_marks_its_boxes():
    """A choice that is not on the list (a tampered form): the error is shown under the boxes
    and each box is marked invalid, as crispy marks them."""
    _ours, _theirs, html = checkbox_lists([("a", "A"), ("b", "B")], {"leaving": ["zz"]})
    assert "Select a valid choice. zz is not one of the available choices." in html
    assert html.count("form-check-input is-invalid") == 2


@given(
    st.lists(st.tuples(st.sampled_from(AWKWARD + ["1", "2"]), st.text(max_size=12)), max_size=8),
    st.lists(st.sampled_from(AWKWARD + ["1", "2"]), max_size=3),
)
def test_any_flat_checkbox_list_renders_as_crispy_s(choices, ticked):
    valid = {text for text, _label in choices}
    data = {"leaving": [t for t in ticked if t in valid]}
    ours, theirs, _html = checkbox_lists(choices, data)
    assert ours == theirs
