from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic.base import RedirectView

from config import views

urlpatterns = [
    path("", include("variants.urls")),
    path("", include("accounts.urls")),
    path("", include("play.urls")),
    path("", include("leaderboards.urls")),
    path("", include("ownbots.urls")),
    path("", include("aiplayers.urls")),
    path("api/v1/", include("api.urls")),
    path("healthz", views.healthz, name="healthz"),
    # Pages name the icon in <head>; this answers the browsers and tools that ask anyway.
    path("favicon.ico", RedirectView.as_view(url=static("favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
]
