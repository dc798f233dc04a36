"""The prize ceremony's names as the tournament page writes them (tables.ceremony_list): the
step of each name, in the reader's language, escaped, linked only for players."""

from django.utils import translation

from rankings.systems.boardgame.tables import ceremony_list

ENTRIES = [
    {"step": "winner", "label": "=cmd|' /C calc'!A0", "url": "/s/players/p1/", "club": "Ἀθῆναι"},
    {"step": "club", "label": "<b>Club</b> & Co", "url": "", "club": ""},
    {"step": "place", "label": "王小明", "url": "/s/players/p2/", "club": ""},
    {"step": "lot", "label": "x" * 200, "url": "/s/players/p3/", "club": "<i>c</i>"},
]


def test_each_name_has_its_step_its_number_and_is_escaped():
    html = str(ceremony_list(ENTRIES, finished=True))
    lines = html.split("\n")
    assert len(lines) == 4
    assert lines[0] == (
        '<li><span class="step badge text-bg-warning">Day winner</span> <strong>1.</strong> '
        '<a href="/s/players/p1/"><bdi>=cmd|&#x27; /C calc&#x27;!A0</bdi></a> '
        '<span class="text-body-secondary small">· <bdi>Ἀθῆναι</bdi></span></li>'
    )
    assert lines[1] == (
        '<li><span class="step badge text-bg-info">Best club</span> <strong>2.</strong> '
        "<bdi>&lt;b&gt;Club&lt;/b&gt; &amp; Co</bdi></li>"
    )
    assert (
        'text-bg-success">Place</span> <strong>3.</strong> <a href="/s/players/p2/"><bdi>王小明'
        in (lines[2])
    )
    assert lines[3].startswith('<li><span class="step badge text-bg-light border">By lot</span>')
    assert "&lt;i&gt;c&lt;/i&gt;" in lines[3] and "x" * 200 in lines[3]


def test_before_the_last_round_the_winner_is_the_leader_and_labels_are_translated():
    assert ">Leader</span>" in str(ceremony_list(ENTRIES, finished=False))
    with translation.override("nl"):
        dutch = str(ceremony_list(ENTRIES, finished=True))
    with translation.override("en"):
        english = str(ceremony_list(ENTRIES, finished=True))
    assert dutch != english and ">Day winner<" not in dutch
    assert ceremony_list([], finished=True) == ""
