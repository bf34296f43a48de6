from django.urls import include, path

from variants import views

app_name = "variants"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.games, name="games"),
    path("games/<id:pk>/manage/", views.manage, name="manage"),
]

# The factory pages: /games/new/ ("variants:factory"), /games/<pk>/ ("variants:detail",
# which RuleSet.get_absolute_url reverses) and the Admin's rename on that page.
urlpatterns += [path("", include("variants.factory.urls"))]
