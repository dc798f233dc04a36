"""Bridge ladder public pages, below /<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

urlpatterns = [
    path("rounds/<int:number>/", views.round_detail, name="round"),
    path("rounds/<int:number>/pools/<int:pool>/", views.pool_detail, name="pool"),
    path("elo/", views.elo, name="elo"),
]
