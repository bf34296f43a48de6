"""``game_withdrawn(rule_set_id=...)``: sent after an Admin's hiding or removal of a game
commits. Live play listens (play/withdrawn.py): sockets open on the game's matches are
told and closed, since variants imports nothing of play (DESIGN §1)."""

from django.dispatch import Signal

game_withdrawn = Signal()
