"""The Discord bot: settings, the Bot class, the store, table sessions and rendering."""
