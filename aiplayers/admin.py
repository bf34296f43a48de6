from django.contrib import admin

from .models import AIPlayer, CurriculumItem, Prediction


@admin.register(AIPlayer)
class AIPlayerAdmin(admin.ModelAdmin):
    list_display = ("player", "kind", "algorithm", "owner", "moves_studied", "study")
    readonly_fields = ("moves_studied", "learning_started")


admin.site.register(CurriculumItem)
admin.site.register(Prediction)
