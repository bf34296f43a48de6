from django.contrib import admin

from leaderboards.models import Rating, StandardPlayer, Tournament, Universe


@admin.register(Universe)
class UniverseAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_by", "created"]
    filter_horizontal = ["members"]
    readonly_fields = ["created_by"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(StandardPlayer)
class StandardPlayerAdmin(admin.ModelAdmin):
    list_display = ["rule_set", "player"]
    raw_id_fields = ["rule_set", "player"]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "rule_set", "universe", "ordinal", "top_burst", "matches"]
    list_filter = ["universe"]
    raw_id_fields = ["player", "rule_set"]
    readonly_fields = [f.name for f in Rating._meta.fields]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "rule_set", "kind", "status", "total_games", "created"]
    list_filter = ["kind", "status"]
    readonly_fields = [f.name for f in Tournament._meta.fields]
