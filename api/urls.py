from django.urls import path, re_path

from api import views

app_name = "api"

urlpatterns = [
    path("openapi.json", views.openapi, name="openapi"),
    path("games/", views.games, name="games"),
    path("games/<id:pk>/", views.game, name="game"),
    path("games/<id:pk>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("games/<id:pk>/matches/", views.game_matches, name="game_matches"),
    path("matches/<id:pk>/", views.match, name="match"),
    path("tournaments/<id:pk>/", views.tournament, name="tournament"),
    path("tournaments/<id:pk>/matches/", views.tournament_matches, name="tournament_matches"),
    re_path(r"^(?P<rest>.*)$", views.not_found),  # last: the API's own 404, in JSON
]
