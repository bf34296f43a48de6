from django.urls import path, re_path

from api import views

app_name = "api"

urlpatterns = [
    path("openapi.json", views.openapi, name="openapi"),
    path("games/", views.games, name="games"),
    path("games/<id:pk>/", views.game, name="game"),
    path("games/<id:pk>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("matches/<id:pk>/", views.match, name="match"),
    path("tournaments/<id:pk>/", views.tournament, name="tournament"),
    re_path(r"^(?P<rest>.*)$", views.not_found),  # last: the API's own 404, in JSON
]
