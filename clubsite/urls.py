from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path

from . import health

# Password reset only where mail can be sent: without a mail server it would say "sent" and
# send nothing.
account_urls = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
]
if settings.MAIL_CONFIGURED:
    account_urls += [
        path("password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
        path(
            "password_reset/done/",
            auth_views.PasswordResetDoneView.as_view(),
            name="password_reset_done",
        ),
        path(
            "reset/<uidb64>/<token>/",
            auth_views.PasswordResetConfirmView.as_view(),
            name="password_reset_confirm",
        ),
        path(
            "reset/done/",
            auth_views.PasswordResetCompleteView.as_view(),
            name="password_reset_complete",
        ),
    ]

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page names: the site's icon, not a 404.
    path("favicon.ico", lambda request: redirect(static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include(account_urls)),
    # Before the manager pages of competitions, whose last pattern takes any path of a season.
    path("manage/", include("rankings.urls_manage")),
    path("manage/", include("competitions.urls", namespace="manage")),
    path("", include("rankings.urls")),
]
