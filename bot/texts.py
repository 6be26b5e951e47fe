"""Every sentence the bot shows a user, in English, Romanian, Hungarian and German.

The texts live in gettext catalogs, ``bot/locales/LANG/LC_MESSAGES/bot.po``, read once with
Babel: each ``msgid`` is the key the code uses (``err.no_table``), its ``msgstr`` the text with
``{name}`` placeholders. English is complete; a key another catalog lacks falls back to English
(``tests/test_i18n.py`` makes sure none lacks any, nor a placeholder).

``t(key, **params)`` formats a message in the *current language*, a context variable set once
per interaction or per public message (``speaking(lang)``), so render functions keep their
signatures. A missing key or placeholder raises at once so that tests catch it rather than
players.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from babel.messages.pofile import read_po

from engine.cards import RANK_CODES, rank_of, suit_letter, suit_of

#: The catalogs, English first (the fallback).
LANGUAGES: Final = ("en", "ro", "hu", "de")
DEFAULT: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "bot"

SUIT_EMOJI = ("🌰", "🍃", "❤️", "🔔")


def load_catalog(lang: str) -> dict[str, str]:
    """One language's texts by key (translated entries only; fuzzy ones are not used)."""
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    return {str(m.id): str(m.string) for m in catalog
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy}


CATALOGS: Final[dict[str, dict[str, str]]] = {lang: load_catalog(lang) for lang in LANGUAGES}
#: The English catalog: every key there is.
EN: Final = CATALOGS[DEFAULT]

_current: contextvars.ContextVar[str] = contextvars.ContextVar("bot_language", default=DEFAULT)


def language_of(locale: object) -> str:
    """The catalog for a Discord locale (``discord.Locale`` or its value: ``ro``, ``hu``,
    ``de``, ``en-US``, ``en-GB``…); English for the others and for None."""
    value = str(getattr(locale, "value", locale) or "")
    base = value.split("-")[0].lower()
    return base if base in CATALOGS else DEFAULT


def current_language() -> str:
    return _current.get()


def set_language(lang: str) -> None:
    """Speak ``lang`` from now on in this task (an interaction's handler: the task ends with
    the interaction). Elsewhere use ``speaking``."""
    _current.set(lang if lang in CATALOGS else DEFAULT)


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block (e.g. a public message drawn in the server's
    language while the click that caused it came from a user with another one)."""
    token = _current.set(lang if lang in CATALOGS else DEFAULT)
    try:
        yield
    finally:
        _current.reset(token)


def t(key: str, **params: Any) -> str:
    text = CATALOGS[_current.get()].get(key)
    if text is None:
        text = EN[key]
    return text.format(**params)


def has_text(key: str) -> bool:
    """Whether the catalog words ``key`` (the views word a game's own phases, facts and
    choices when a text exists, and show them plainly otherwise)."""
    return key in EN


def card_label(c: int) -> str:
    """A card for people: suit sign and rank in the current language, e.g. ``🍃 O`` in
    English, ``🍃 filicău`` in Romanian."""
    return f"{SUIT_EMOJI[suit_of(c)]} {t('rank.' + RANK_CODES[rank_of(c)])}"


def card_labels(c: int) -> set[str]:
    """The card's label in every language (to look for a card in any message)."""
    labels = set()
    for lang in LANGUAGES:
        with speaking(lang):
            labels.add(card_label(c))
    return labels


def suit_label(s: int) -> str:
    return f"{SUIT_EMOJI[s]} {t('suit.' + suit_letter(s))}"


def team_name(team: int) -> str:
    return "ABCDEF"[team]


def game_title(game: str, default: str) -> str:
    """A game's name in the current language (``default``, the engine's, for a game the
    catalogs do not know yet)."""
    key = f"game.{game}"
    return t(key) if has_text(key) else default


def option_text(name: str, value: Any) -> str:
    """``early end: on``: a table option and its value, worded."""
    key = f"option.{name}"
    vkey = f"value.{value}"
    return t("option.line", option=t(key) if has_text(key) else name,
             value=t(vkey) if has_text(vkey) else str(value))
