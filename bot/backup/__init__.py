"""``python -m bot.backup``: a consistent copy of the bot's database while the bot runs, and
the copy put back.

    python -m bot.backup                          # DATABASE_URL, else DATABASE_PATH (as the bot)
    python -m bot.backup --to /srv/backups       # a folder (a stamped name) or a file
    python -m bot.backup --check-into postgresql://.../filicau_check   # PostgreSQL: restore-test it
    python -m bot.backup --restore backups/filicau-20261127T031500Z.sqlite3

SQLite is copied with SQLite's online backup API (``bot.backup.sqlite``), PostgreSQL with
``pg_dump``'s custom format (``bot.backup.postgres``); each copy is checked against the row
counts read in the snapshot it was made from. A restore is refused while a bot runs on the
database (it takes the bot's own ownership lock for its duration), keeps the database it
replaces, and says what it did.
"""

from bot.backup.copies import BackupError, Copy, kind

__all__ = ["BackupError", "Copy", "kind"]
