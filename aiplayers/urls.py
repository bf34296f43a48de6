from django.urls import path

from aiplayers import views

app_name = "aiplayers"

urlpatterns = [
    path("ai/", views.mine, name="mine"),
    path("ai/new/", views.new, name="new"),
    path("ai/study/", views.study_from, name="study_from"),
    path("ai/<id:pk>/", views.detail, name="detail"),
    path("ai/<id:pk>/delete/", views.delete, name="delete"),
    path("ai/<id:pk>/fork/", views.fork, name="fork"),
    path("ai/<id:pk>/export/", views.export, name="export"),
    path("ai/<id:pk>/import/", views.import_model, name="import"),
    path("ai/<id:pk>/curriculum/", views.add_curriculum, name="add_curriculum"),
    path("ai/<id:pk>/curriculum/<id:item>/remove/", views.remove_item, name="remove_item"),
    path("ai/<id:pk>/study/", views.study, name="study"),
    path("ai/<id:pk>/cancel/", views.cancel, name="cancel"),
    path("ai/<id:pk>/progress/", views.progress, name="progress"),
]
