"""The bridge ladder's next-round page, below /manage/<series>/<season>/ (added to the system's
manager URLconfs with competitions.registry.add_manage_urls)."""

from django.urls import path

from . import views

urlpatterns = [
    path("rounds/next/", views.next_round, name="next_round"),
]
