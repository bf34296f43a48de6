from django.urls import path

from ownbots import views

app_name = "ownbots"

urlpatterns = [
    path("bots/", views.my_bots, name="mine"),
    path("bots/<id:pk>/token/", views.replace_token, name="replace_token"),
    path("bots/<id:pk>/revoke/", views.revoke_token, name="revoke_token"),
    path("bots/<id:pk>/challenges/", views.challenges, name="challenges"),
]
