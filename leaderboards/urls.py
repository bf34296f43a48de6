from django.urls import path

from leaderboards import views

app_name = "leaderboards"

urlpatterns = [
    path("games/<id:pk>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("games/<id:pk>/evolution/", views.evolution, name="evolution"),
    path("games/<id:pk>/tournaments/", views.game_tournaments, name="game_tournaments"),
    path("players/<id:pk>/learning-curve/", views.learning_curve, name="learning_curve"),
    path("tournaments/", views.tournament_factory, name="factory"),
    path("tournaments/benchmark/", views.benchmark, name="benchmark"),
    path("tournaments/<id:pk>/", views.tournament, name="tournament"),
    path("tournaments/social/", views.social, name="social"),
    path("tournaments/<id:pk>/plan/", views.plan_action, name="plan_action"),
    path("tournaments/<id:pk>/progress/", views.progress, name="progress"),
]
