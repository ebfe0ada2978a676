"""URL routes of the whole site."""

from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("manage/", include("tournaments.urls_director")),
    path("", include("gameplay.urls")),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls_public")),
]
