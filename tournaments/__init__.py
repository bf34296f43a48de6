"""Tournaments: plans of games between bots, run by Celery workers (README.md says where
each part lives and the one-way rule of its imports)."""
