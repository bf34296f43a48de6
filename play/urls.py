from django.urls import path

from play import views

app_name = "play"

urlpatterns = [
    path("play/", views.new_match, name="new"),
    path("matches/", views.match_list, name="list"),
    path("matches/<int:pk>/", views.match_page, name="match"),
    path("matches/<int:pk>/answer/", views.answer, name="answer"),
    path("matches/<int:pk>/replay/", views.replay, name="replay"),
    path("matches/<int:pk>/ratings/", views.ratings, name="ratings"),
]
