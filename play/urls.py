from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("play/", views.new_match, name="new"),
    path("matches/", views.match_list, name="list"),
    path("matches/<id:pk>/", views.match_page, name="match"),
    path("matches/<id:pk>/answer/", views.answer, name="answer"),
    path("matches/<id:pk>/replay/", views.replay, name="replay"),
    path("matches/<id:pk>/replay/frames/", views.replay_frames, name="replay_frames"),
    path("matches/<id:pk>/ratings/", views.ratings, name="ratings"),
]
