from django.urls import path

from leaderboards import views

app_name = "leaderboards"

urlpatterns = [
    path("games/<int:pk>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("games/<int:pk>/evolution/", views.evolution, name="evolution"),
    path("games/<int:pk>/tournaments/", views.game_tournaments, name="game_tournaments"),
    path("tournaments/", views.tournament_factory, name="factory"),
    path("tournaments/benchmark/", views.benchmark, name="benchmark"),
    path("tournaments/<int:pk>/", views.tournament, name="tournament"),
    path("tournaments/<int:pk>/progress/", views.progress, name="progress"),
]
