"""The read API's OpenAPI 3.0 description, served at /api/v1/openapi.json and checked
against the live views by schemathesis (tests/test_api_schema.py): change both together."""

from __future__ import annotations

from variants.ids import MAX_ID

_INT = {"type": "integer"}
_STR = {"type": "string"}
_NUM = {"type": "number"}
_BOOL = {"type": "boolean"}


def _nullable(schema: dict) -> dict:
    return {**schema, "nullable": True}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _object(properties: dict, required: list[str] | None = None) -> dict:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
    }


_ID_PARAM = {
    "name": "pk",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
}
_PAGING = [
    {
        "name": "offset",
        "in": "query",
        "description": "Items to skip (0 to 1,000,000,000).",
        "schema": {"type": "integer", "minimum": 0, "maximum": 10**9, "default": 0},
    },
    {
        "name": "limit",
        "in": "query",
        "description": "Items per page (1 to 100).",
        "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
    },
]


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


_ERRORS = {
    "400": _json(
        _ref("Error"),
        "A query parameter is not one this API accepts, or the request holds a control character.",
    ),
    "404": _json(_ref("Error"), "No such object, or one the visitor may not see."),
}


def _page_of(item: dict) -> dict:
    return _object(
        {
            "count": {**_INT, "minimum": 0, "description": "Items in all pages."},
            "offset": {**_INT, "minimum": 0},
            "limit": {**_INT, "minimum": 1, "maximum": 100},
            "results": {"type": "array", "items": item},
        }
    )


_GAME_ROW = {
    "id": {**_INT, "minimum": 1},
    "name": _STR,
    "fingerprint": {
        **_STR,
        "description": "sha256 of the canonical rules without the name.",
    },
    "summary": {**_STR, "description": "The rules in one plain-English line."},
    "url": {**_STR, "description": "The game's page on the site."},
}

_SEAT = _object(
    {
        "index": {**_INT, "minimum": 0, "description": "The engine's seat number."},
        "kind": {
            **_STR,
            "description": "chaos, open, or the player's kind (human, bot, random, ...).",
        },
        "player": _nullable({**_INT, "description": "The player's id (none for Chaos)."}),
        "name": _STR,
        "result": _nullable({**_STR, "enum": ["win", "draw", "loss"]}),
        "rank": _nullable(_INT),
    }
)

_MOVE = _object(
    {
        "ply": {**_INT, "minimum": 1},
        "seat": {**_INT, "minimum": 0},
        "kind": {
            **_STR,
            "enum": ["move", "resign", "timeout", "disconnect", "skip"],
            "description": (
                "How to replay the row: `move` is `state.apply(seat, game.parse_move(move))`, "
                "`skip` is `state.skip(seat)`; `resign`, `timeout` and `disconnect` are "
                "`state.forfeit(seat, reason)` with reason `resignation`, `timeout` and "
                "`disconnect`."
            ),
        },
        "move": {**_STR, "description": "The move in the engine's notation ('' for no move)."},
    }
)

_OUTCOME = {
    "type": "object",
    "description": "How the match ended (the site's game:over event).",
    "properties": {
        "reason": _STR,
        "winner": _nullable(_INT),
        "winners": {"type": "array", "items": _INT},
        "results": {"type": "array", "items": _STR},
        "ranks": {"type": "array", "items": _INT},
        "winningLine": _nullable({"type": "array"}),
        "winningLines": {"type": "array"},
        "detail": _nullable(_STR),
    },
    "required": ["reason"],
    "nullable": True,
}

COMPONENTS = {
    "Error": _object({"error": _STR}),
    "GameRow": _object(_GAME_ROW),
    "Game": _object(
        {
            **_GAME_ROW,
            "created": {**_STR, "format": "date-time"},
            "hidden": {**_BOOL, "description": "Hidden by an Admin (only Admins see it)."},
            "removed": {**_BOOL, "description": "Removed (only Admins see it)."},
            "document": {
                "type": "object",
                "description": "The rule document: `gamecore.engine.compile_game(document)`.",
            },
        }
    ),
    "GamePage": _page_of(_ref("GameRow")),
    "MatchRow": _object(
        {
            "id": _INT,
            "game": _INT,
            "moves": {**_INT, "minimum": 0, "description": "Rows in the move log."},
            "finished": _nullable({**_STR, "format": "date-time"}),
            "tournament": _nullable(_INT),
            "results": {
                "type": "array",
                "items": _STR,
                "description": "Each seat's result: win, draw or loss.",
            },
            "url": {**_STR, "description": "The match in this API."},
        }
    ),
    "MatchPage": _page_of(_ref("MatchRow")),
    "LeaderboardRow": _object(
        {
            "position": {**_INT, "minimum": 1},
            "player": _object({"id": _INT, "name": _STR, "kind": _STR}),
            "score": {**_NUM, "description": "R + top burst: the board's order."},
            "rating": {**_NUM, "description": "R = mu - 3 sigma."},
            "mu": _NUM,
            "sigma": _NUM,
            "matches": {**_INT, "minimum": 0},
        }
    ),
    "Leaderboard": {
        **_page_of(_ref("LeaderboardRow")),
        "properties": {
            "game": _INT,
            "universe": _STR,
            **_page_of(_ref("LeaderboardRow"))["properties"],
        },
        "required": ["game", "universe", "count", "offset", "limit", "results"],
    },
    "Match": _object(
        {
            "id": _INT,
            "game": _INT,
            "fingerprint": _STR,
            "status": {**_STR, "enum": ["invited", "active", "finished", "aborted"]},
            "seed": _nullable(
                {**_INT, "description": "`game.new_initial_state(seed)`; none while live."}
            ),
            "started": _nullable({**_STR, "format": "date-time"}),
            "finished": _nullable({**_STR, "format": "date-time"}),
            "tournament": _nullable(_INT),
            "seats": {"type": "array", "items": _SEAT},
            "moves": {"type": "array", "items": _MOVE},
            "outcome": _OUTCOME,
            "url": {**_STR, "description": "The match's replay page."},
        }
    ),
    "Tournament": _object(
        {
            "id": _INT,
            "name": _STR,
            "game": _INT,
            "universe": _STR,
            "kind": {**_STR, "enum": ["standard", "benchmark", "social", "other"]},
            "rated": _BOOL,
            "status": {
                **_STR,
                "enum": ["planned", "running", "finalising", "done", "failed"],
            },
            "created": {**_STR, "format": "date-time"},
            "finished": _nullable({**_STR, "format": "date-time"}),
            "total_games": {**_INT, "minimum": 0},
            "written": {**_INT, "minimum": 0},
            "sets": {
                "type": "array",
                "items": _object(
                    {
                        "players": {"type": "array", "items": _STR},
                        "games": _INT,
                        "written": _INT,
                        "game": _INT,
                    }
                ),
            },
            "results": _nullable(
                {
                    "type": "object",
                    "description": "Once done: per-player win and draw rates, duration.",
                    "properties": {
                        "games": _INT,
                        "average_moves": _NUM,
                        "draw_rate": _NUM,
                        "seconds": _NUM,
                        "players": {
                            "type": "array",
                            "items": _object(
                                {
                                    "player": _INT,
                                    "name": _STR,
                                    "games": _INT,
                                    "win_rate": _NUM,
                                    "draw_rate": _NUM,
                                }
                            ),
                        },
                    },
                }
            ),
            "error": _nullable({**_STR, "description": "Why a failed tournament stopped."}),
            "url": _STR,
        }
    ),
}


def _get(summary: str, schema: str, parameters: list, errors=("400", "404"), **more) -> dict:
    responses = {"200": _json(_ref(schema), summary)}
    responses.update({code: _ERRORS[code] for code in errors})
    responses.update(more)
    return {"get": {"summary": summary, "parameters": parameters, "responses": responses}}


SCHEMA = {
    "openapi": "3.0.3",
    "info": {
        "title": "Variant Foundry read API",
        "version": "1.0.0",
        "description": (
            "Read-only JSON: games (rule document, fingerprint, summary), a game's "
            "leaderboard, a match's move log, a tournament's results. Hidden and removed "
            "games, and everything of them, are 404 to everyone but Admins (as on the "
            "pages); a cloaked match's log is refused (403) until the match is over."
        ),
    },
    "servers": [{"url": "/api/v1"}],
    "paths": {
        "/games/": _get(
            "Every game the visitor may see, a page at a time.",
            "GamePage",
            _PAGING,
            errors=("400",),
        ),
        "/games/{pk}/": _get("One game with its rule document.", "Game", [_ID_PARAM]),
        "/games/{pk}/leaderboard/": _get(
            "A game's leaderboard in one universe, best first, a page at a time.",
            "Leaderboard",
            [
                _ID_PARAM,
                {
                    "name": "universe",
                    "in": "query",
                    "description": (
                        "A universe's slug (default: the public one, `main`); one the "
                        "visitor has no persona in is 404, as one that does not exist."
                    ),
                    "schema": {"type": "string", "maxLength": 40},
                },
                *_PAGING,
            ],
            errors=("400", "404"),
        ),
        "/games/{pk}/matches/": _get(
            "A game's finished matches, newest first, a page at a time.",
            "MatchPage",
            [_ID_PARAM, *_PAGING],
            errors=("400", "404"),
        ),
        "/matches/{pk}/": _get(
            "A match: seats, the move log in the engine's notation, seed and outcome.",
            "Match",
            [_ID_PARAM],
            **{"403": _json(_ref("Error"), "A cloaked match that is not over yet.")},
        ),
        "/tournaments/{pk}/": _get("A tournament and its results.", "Tournament", [_ID_PARAM]),
        "/tournaments/{pk}/matches/": _get(
            "A tournament's finished games, newest first, a page at a time.",
            "MatchPage",
            [_ID_PARAM, *_PAGING],
            errors=("400", "404"),
        ),
    },
    "components": {"schemas": COMPONENTS},
}
