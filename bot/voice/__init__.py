"""The bot's one voice: a table's state worded once, surface-neutral (issue 41).

``bot.voice.text`` holds the words' parts (a person, a card, a suit, a number, a moment,
emphasis) and ``say``, which fills a catalog sentence with them; ``bot.voice.table`` names a
table's people; ``bot.voice.words`` words what a view shows. Every surface draws the same
``Text``: ``bot.voice.markdown`` for Discord (mentions, markdown), ``bot.voice.wire`` for the
pages and the Activity (JSON spans their script draws as HTML). Nothing here knows Discord.
"""

from bot.voice.text import Card, Code, Moment, Number, Person, Segment, Strong, Suit, Text, say

__all__ = ["Card", "Code", "Moment", "Number", "Person", "Segment", "Strong", "Suit", "Text",
           "say"]
