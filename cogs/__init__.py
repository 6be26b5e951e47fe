"""One cog per concern: tables and play, standings, admin."""
