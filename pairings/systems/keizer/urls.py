"""The Keizer pair-round page, below /manage/<series>/<season>/ (added to the system's manager
URLconfs with competitions.registry.add_manage_urls)."""

from django.urls import path

from . import views

urlpatterns = [
    path("rounds/<int:number>/pair/", views.pair, name="pair"),
]
