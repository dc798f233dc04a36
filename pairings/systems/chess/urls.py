"""The pairing page of a chess group, below /manage/<series>/<season>/."""

from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/<str:tournament>/groups/<int:group>/pair/", views.pair_group, name="pair"),
]
