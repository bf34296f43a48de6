from django.urls import include, path

from variants import views

app_name = "variants"

urlpatterns = [
    path("", views.home, name="home"),
]

urlpatterns += [path("", include("variants.factory.urls"))]
