"""Own bots in the admin: read-only views of connections, turns and versions (tokens are
managed from the bot's page; their hashes are not shown)."""

from django.contrib import admin

from .models import BotConnection, BotTurn, GameVersion


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(BotConnection)
class BotConnectionAdmin(ReadOnly):
    list_display = ("player", "version", "connected", "seen", "process")


@admin.register(BotTurn)
class BotTurnAdmin(ReadOnly):
    list_display = ("pk", "player", "tournament", "game_number", "seat", "ply", "status", "answer")
    list_filter = ("status",)
    exclude = ("view",)


@admin.register(GameVersion)
class GameVersionAdmin(ReadOnly):
    list_display = ("player", "version", "match", "seat")
    search_fields = ("version",)
