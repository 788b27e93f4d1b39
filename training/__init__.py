"""Self-play training, duplicate-match evaluation and the ``belote`` command line."""
