"""Chess public pages, below /<series>/<season>/ (see competitions.dispatch)."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/<str:tournament>/", views.tournament_detail, name="tournament"),
    path("tournaments/<str:tournament>/groups/<int:group>/", views.group_detail, name="group"),
    path(
        "tournaments/<str:tournament>/groups/<int:group>/trf/",
        views.group_trf_download,
        name="group_trf",
    ),
    path("bgp/", views.classes, name="classes"),
    path("bgp/<slug:cls>/", views.class_detail, name="class"),
]
