from django.contrib import admin
from django.urls import include, path

from config import views

urlpatterns = [
    path("", include("variants.urls")),
    path("", include("accounts.urls")),
    path("", include("play.urls")),
    path("", include("leaderboards.urls")),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
