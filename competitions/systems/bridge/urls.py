"""Bridge ladder manager pages, below /manage/<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

urlpatterns = [
    path("setup/", views.ladder_setup, name="setup"),
    path("rounds/<int:number>/", views.round_manage, name="round"),
    path("rounds/<int:number>/swap/", views.members_swap, name="swap"),
    path("rounds/<int:number>/pools/<int:pool>/", views.pool_scores, name="pool"),
    path(
        "rounds/<int:number>/pools/<int:pool>/upload/",
        views.challenge_upload,
        name="challenge_upload",
    ),
]
