from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import friend_views, views

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        views.LoginView.as_view(),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("friends/", friend_views.friends, name="friends"),
    path("friends/request/", friend_views.send_request, name="friend_request"),
    path("friends/<id:pk>/answer/", friend_views.answer_request, name="friend_answer"),
    path("friends/<id:pk>/unban/", friend_views.unban, name="friend_unban"),
    path("friends/<id:pk>/cancel/", friend_views.cancel, name="friend_cancel"),
    path("friends/<id:pk>/remove/", friend_views.unfriend, name="friend_remove"),
    path("users/", views.users, name="users"),
    path("users/<id:pk>/role/", views.change_role, name="change_role"),
    path("players/<id:pk>/", views.player, name="player"),
    path("personas/", views.personas, name="personas"),
]
