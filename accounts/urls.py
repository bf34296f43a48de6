from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("accounts/signup/", views.signup, name="signup"),
    path(
        "accounts/login/",
        views.LoginView.as_view(),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("users/", views.users, name="users"),
    path("users/<int:pk>/role/", views.change_role, name="change_role"),
    path("players/<int:pk>/", views.player, name="player"),
    path("personas/", views.personas, name="personas"),
]
