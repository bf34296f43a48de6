"""Included by variants/urls.py (namespace "variants"), so no app_name here."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/new/", views.factory, name="factory"),
    path("games/new/refresh/", views.refresh, name="factory_refresh"),
    path("games/<id:pk>/", views.detail, name="detail"),
    path("games/<id:pk>/rename/", views.rename, name="rename"),
    path("games/<id:pk>/analysis/", views.analysis, name="analysis"),
]
