"""Moving in from KeizerForClubs on the manager's pages (keizer-variants.md §5): upload a
tournament file (`.s3db`) with a season label, see a dry run (what would be stored, and the
check of every player's score and place against the file's), then confirm to store it.

The preview is `import_kfc(..., dry_run=True)`: the import and the check run in a transaction
that is rolled back, so nothing is stored. The confirm is one call of `import_kfc`: one
transaction, then the recompute (`rankings.imports`), then the check.

Between the two the file rides in the page, not on the server: the preview page holds the file
(zlib, base64) in a hidden field beside a signed ticket (`django.core.signing`, salted, at most
MAX_AGE old) naming its SHA-256, the series, the manager and the choices (label, replace, next
round). The confirm reads those choices from the ticket only and refuses a file whose digest is
not the ticket's: a changed page cannot import another file, into another season, or for another
manager, than was previewed. The page is as large as the compressed file; a file whose page would
be larger than Django's DATA_UPLOAD_MAX_MEMORY_SIZE is refused at the preview, naming the command.
"""

import base64
import binascii
import hashlib
import zlib
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from competitions.interchange import FileError
from competitions.models import Season
from competitions.systems.keizer.kfc import is_kfc
from competitions.systems.keizer.settings import SPEC, shown_value
from competitions.uploads import size_text, upload_bytes
from competitions.views import manage_url

from .kfc import KfcImport, import_kfc

SALT = "rankings.systems.keizer.move_in"
# How long a preview can be confirmed, in seconds.
MAX_AGE = 3600
# Room for the form's other fields (the CSRF token, the ticket) in a confirm's body.
FORM_ROOM = 16_000


def upload_limit() -> int:
    """The largest file read (IMPORT_MAX_MB, the command's limit), in bytes."""
    return settings.IMPORT_MAX_MB * 1_000_000


class MoveInForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("KeizerForClubs file"),
        help_text=gettext_lazy(
            "The tournament file KeizerForClubs keeps for the competition (a .s3db file)."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".s3db,application/octet-stream"}),
    )
    label = forms.CharField(
        label=gettext_lazy("Season"),
        max_length=32,
        help_text=gettext_lazy(
            "A year (2026) or a label (2026/27): a new season, or one to replace."
        ),
    )
    replace = forms.BooleanField(
        label=gettext_lazy("Replace the season with this label if it exists already"),
        required=False,
        help_text=gettext_lazy(
            "Its players, evenings, results and settings are replaced by the file's."
        ),
    )
    next_round = forms.BooleanField(
        label=gettext_lazy("Also take the next evening's attendance from the file"),
        required=False,
        help_text=gettext_lazy(
            "KeizerForClubs keeps what each player does on the coming evening (available, "
            "club duty, excused, unexcused). Many clubs leave everyone available: then leave "
            "this off."
        ),
    )

    def __init__(self, *args, series, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.series = series
        self.raw = b""

    def clean_file(self):
        upload = self.cleaned_data["file"]
        raw = upload_bytes(upload, limit=upload_limit())
        if not is_kfc(raw):
            raise forms.ValidationError(
                _(
                    "This is not a KeizerForClubs tournament file: it is not an SQLite "
                    "database. KeizerForClubs keeps a competition in a .s3db file."
                )
            )
        self.raw = raw
        return upload

    def clean_label(self) -> str:
        return self.cleaned_data["label"].strip()

    def clean(self):
        data = super().clean()
        label = data.get("label")
        self.fills_empty = False
        if label and not data.get("replace"):
            existing = Season.objects.filter(series=self.series, label=label).first()
            if existing is not None and is_empty(existing):
                # A season just created for the move: nothing of it to lose, no tick needed.
                data["replace"] = self.fills_empty = True
            elif existing is not None:
                self.add_error(
                    "label",
                    _(
                        "Season %(label)s exists already. Tick “Replace” to replace it with "
                        "the file, or give another label."
                    )
                    % {"label": label},
                )
        return data


# --- the file between preview and confirm ----------------------------------------------------


class Refused(Exception):
    """A confirm that cannot be trusted (changed, expired, another manager's)."""


def seal(raw: bytes, *, series: str, user: int, choices: dict[str, Any]) -> dict[str, str]:
    """The confirm form's hidden fields: the file, and the signed ticket naming its digest, the
    series, the manager and the choices."""
    ticket = signing.dumps(
        {
            "sha256": hashlib.sha256(raw).hexdigest(),
            "series": series,
            "user": user,
            "choices": choices,
        },
        salt=SALT,
    )
    return {"ticket": ticket, "data": base64.b64encode(zlib.compress(raw, 9)).decode("ascii")}


def unseal(fields, *, series: str, user: int) -> tuple[bytes, dict[str, Any]]:
    """The previewed file and the choices of a confirm, or Refused."""
    try:
        ticket = signing.loads(fields.get("ticket", ""), salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise Refused(_("The preview is more than an hour old.")) from None
    except signing.BadSignature:
        raise Refused(_("The confirmation was changed after the preview.")) from None
    if ticket.get("series") != series or ticket.get("user") != user:
        raise Refused(_("The preview was made for another series or another manager."))
    limit = upload_limit()
    try:
        packed = base64.b64decode(fields.get("data", ""), validate=True)
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, limit + 1)
        if len(raw) > limit or not inflate.eof:
            raise Refused(_("The confirmation was changed after the preview."))
    except (binascii.Error, zlib.error, ValueError):
        raise Refused(_("The confirmation was changed after the preview.")) from None
    if hashlib.sha256(raw).hexdigest() != ticket.get("sha256"):
        raise Refused(_("The confirmation was changed after the preview."))
    return raw, ticket["choices"]


def body_limit() -> int | None:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


# --- what the preview shows ----------------------------------------------------------------------


@dataclass
class PlayerLine:
    position: int
    name: str
    withdrawn: bool
    score: float | None = None
    place: int | None = None
    file_score: float | None = None
    file_place: int | None = None
    equal: bool = True


def player_lines(done: KfcImport) -> list[PlayerLine]:
    """The players in the order of the initial list, each with the check's numbers."""
    compared = {found.key: found for found in done.compared}
    lines = []
    for position, player in enumerate(done.document["players"], start=1):
        line = PlayerLine(position, player["name"], bool(player.get("withdrawn")))
        found = compared.get(player["id"])
        if found is not None:
            line.score, line.place = found.score, found.place
            line.file_score, line.file_place = found.file_score, found.file_place
            line.equal = found.equal
        lines.append(line)
    return lines


def round_lines(document: dict) -> list[dict[str, Any]]:
    """Per evening: its games and results, and how many players are in each list."""
    return [
        {
            "number": found["number"],
            "games": len(found["games"]),
            "results": sum(1 for game in found["games"] if "result" in game),
            "bye": len(found.get("bye", [])),
            "absent": len(found.get("absent", [])),
            "external": len(found.get("external", [])),
            "unexcused": len(found.get("unexcused", [])),
            "present": len(found.get("present", [])),
        }
        for found in document["rounds"]
    ]


def setting_lines(document: dict) -> list[tuple[str, str]]:
    """(label, value) of every setting taken from the file, the preset first."""
    lines = []
    for name, value in document["settings"].items():
        setting = SPEC.field(name)
        if setting is not None:
            lines.append((str(setting.label), shown_value(setting, value)))
    return lines


# --- the page ------------------------------------------------------------------------------------


def is_empty(season: Season) -> bool:
    """A season without players and evenings (created for the move, say)."""
    return not season.entries.exists() and not season.rounds.exists()


def move_in(request, season: Season):
    """The upload form; its POST the preview (nothing stored); the preview's POST stores it."""
    series = season.series
    context: dict[str, Any] = {"season": season, "series": series}
    if request.method == "POST" and request.POST.get("action") == "confirm":
        return _confirm(request, season, context)
    if request.method != "POST":
        form = MoveInForm(
            series=series, initial={"label": season.label if is_empty(season) else ""}
        )
        return _page(request, context, form)
    form = MoveInForm(request.POST, request.FILES, series=series)
    if not form.is_valid():
        return _page(request, context, form, status=400)
    choices = {
        "label": form.cleaned_data["label"],
        "replace": form.cleaned_data["replace"],
        "next_round": form.cleaned_data["next_round"],
        "fills_empty": form.fills_empty,
    }
    hidden = seal(form.raw, series=series.slug, user=request.user.pk, choices=choices)
    limit = body_limit()
    if limit is not None and len(hidden["data"]) + len(hidden["ticket"]) + FORM_ROOM > limit:
        form.add_error(
            "file",
            _(
                "This file is too large to be confirmed on this page (%(size)s packed, a page "
                "sends at most %(limit)s). Ask the site's administrator to import it with the "
                "command import_competition."
            )
            % {"size": size_text(len(hidden["data"])), "limit": size_text(limit)},
        )
        return _page(request, context, form, status=400)
    try:
        done = import_kfc(
            form.raw,
            series=series.slug,
            season=choices["label"],
            replace=choices["replace"],
            next_round=choices["next_round"],
            dry_run=True,
        )
    except FileError as exc:
        form.add_error("file", str(exc))
        return _page(request, context, form, status=400)
    context.update(
        preview=done,
        choices=choices,
        hidden=hidden,
        players=player_lines(done),
        rounds=round_lines(done.document),
        settings_lines=setting_lines(done.document),
        file_name=form.cleaned_data["file"].name,
    )
    return render(request, "rankings/keizer/move_in.html", context)


def _page(request, context: dict, form: MoveInForm, *, status: int = 200, problem: str = ""):
    context.update(form=form, problem=problem, limit=size_text(upload_limit()))
    return render(request, "rankings/keizer/move_in.html", context, status=status)


def _confirm(request, season: Season, context: dict):
    series = season.series
    form = MoveInForm(series=series)
    try:
        raw, choices = unseal(request.POST, series=series.slug, user=request.user.pk)
    except Refused as exc:
        problem = _("%(why)s Nothing was stored: upload the file again.") % {"why": exc}
        return _page(request, context, form, status=400, problem=problem)
    label = choices["label"]
    existing = Season.objects.filter(series=series, label=label).first()
    if choices.get("fills_empty") and existing is not None and not is_empty(existing):
        problem = _(
            "Season %(label)s has players or evenings since the preview. Nothing was stored: "
            "upload the file again, and tick “Replace” if the file should replace them."
        ) % {"label": label}
        return _page(request, context, form, status=400, problem=problem)
    if not choices["replace"] and existing is not None:
        problem = _(
            "Season %(label)s exists already: stored meanwhile, or by this confirmation sent "
            "twice. Nothing was stored."
        ) % {"label": label}
        return _page(request, context, form, status=400, problem=problem)
    try:
        done = import_kfc(
            raw,
            series=series.slug,
            season=label,
            replace=choices["replace"],
            next_round=choices["next_round"],
        )
    except FileError as exc:
        problem = _("Nothing was stored: %(error)s") % {"error": str(exc)}
        return _page(request, context, form, status=400, problem=problem)
    stored = done.result.season
    names = {
        "season": stored.name,
        "players": len(done.document["players"]),
        "rounds": len(done.document["rounds"]),
    }
    if done.result.replaced:
        text = _(
            "%(season)s was replaced by the KeizerForClubs file (players: %(players)s, "
            "evenings: %(rounds)s)."
        )
    else:
        text = _(
            "%(season)s was moved in from KeizerForClubs (players: %(players)s, evenings: "
            "%(rounds)s)."
        )
    messages.success(request, text % names)
    if done.differences:
        messages.warning(
            request,
            _(
                "Check: %(n)s of %(all)s players differ from the scores and places the "
                "KeizerForClubs file stores, as the preview listed. The file may be stale."
            )
            % {"n": len(done.differences), "all": done.checked},
        )
    else:
        messages.info(request, done.summary)
    return redirect(manage_url(stored))
