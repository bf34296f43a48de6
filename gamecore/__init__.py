"""The game core: rule documents, the engine that plays them, and the bots.

Pure Python with no Django (DESIGN §1, §9): the site's apps import it, it imports none
of them, so it runs the same in a script, a Celery worker, a notebook or a test.
"""

__version__ = "0.2.0"
