"""URL routes of the whole site."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from core.health import healthz
from core.login_limit import admin_login
from web.views.home import favicon, home
from web.views.sign_in import SignInView

urlpatterns = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    # Before the admin's own sign-in route, which it replaces: the same sign-in limit.
    path("admin/login/", admin_login(admin.site)),
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    # Before Django's own sign-in route, which it replaces: failed attempts are limited.
    path("accounts/login/", SignInView.as_view(), name="login"),
    # Django's sign-out and password change; not its password reset, which e-mails a link and
    # this site sends no e-mail (a reset asked for would fail with a server error).
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("manage/", include("web.urls.director")),
    path("manage/", include("web.urls.director_seasons")),
    path("", include("web.urls.table")),
    path("", include("web.urls.player")),
    path("", include("web.urls.public")),
    path("", include("web.urls.seasons")),
]

# Requests Django cannot read (too large, too many fields) and unknown API addresses get a
# clear answer, JSON under /api/ (core/request_limits.py).
handler400 = "core.request_limits.bad_request"
handler404 = "core.request_limits.page_not_found"
