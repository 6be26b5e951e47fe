"""Every sentence the bot shows a user, in English, Romanian, Hungarian and German.

The texts live in gettext catalogs, ``bot/locales/LANG/LC_MESSAGES/bot.po``, read once with
Babel: each ``msgid`` is the key the code uses (``err.no_table``), its ``msgstr`` the text with
``{name}`` placeholders. English is complete; a key another catalog lacks falls back to English
(``tests/test_i18n.py`` makes sure none lacks any, nor a placeholder).

``t(key, **params)`` formats a message in the *current language*, a context variable set once
per interaction or per public message (``speaking(lang)``), so render functions keep their
signatures. A missing key or placeholder raises at once so that tests catch it rather than
players.

An entry that words a number has plural forms (``msgid_plural``, ``msgstr[N]``): ``t`` picks
the form for its ``count`` with gettext's ``ngettext`` and the catalog's ``Plural-Forms``
(English and German two forms, Hungarian one, Romanian three: 1, 2–19, 20+ — "o mână",
"5 mâini", "20 de mâini"). A sentence with several numbers fills its placeholders with such
entries (``t("n.hands", count=3)``).

A placeholder may ask for the Hungarian article: ``{team:az}`` gives "az A" or "a B",
``{team:Az}`` the same at the start of a sentence (``hungarian_article``); placeholders keep
English's names, so the catalogs still agree.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import io
import re
import string
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from engine.cards import (
    CARD_POINTS,
    RANK_CODES,
    SUIT_NAMES,
    CardError,
    card,
    rank_of,
    suit_letter,
    suit_of,
)

#: The catalogs, English first (the fallback).
LANGUAGES: Final = ("en", "ro", "hu", "de")
DEFAULT: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "bot"

SUIT_EMOJI = ("🌰", "🍃", "❤️", "🔔")
#: The suit signs of French-suited cards (clubs, spades, hearts, diamonds for E, G, H, S).
FRENCH_SIGNS = ("♣", "♠", "♥", "♦")
#: The suit signs by the faces a table shows (``bot.cardart.FACES``).
SUIT_SIGNS: Final = {"german": SUIT_EMOJI, "french": FRENCH_SIGNS}
#: Faces whose cards have names of their own in the catalogs (``faced``).
NAMED_FACES: Final = ("french",)


def read_catalog(lang: str) -> Catalog:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def texts_of(catalog: Catalog) -> dict[str, str]:
    """A catalog's texts by key (translated entries only; fuzzy ones are not used). Entries
    with plural forms are ``plurals_of``'."""
    return {str(m.id): str(m.string) for m in catalog
            if m.id and isinstance(m.id, str) and m.string and not m.fuzzy}


def plurals_of(catalog: Catalog) -> dict[str, tuple[str, ...]]:
    """A catalog's entries with plural forms: key → its forms, as many as the catalog's
    ``Plural-Forms`` declares (complete, not fuzzy entries only)."""
    return {str(m.id[0]): tuple(str(s) for s in m.string) for m in catalog
            if isinstance(m.id, tuple) and isinstance(m.string, tuple)
            and all(m.string) and not m.fuzzy}


def translations_of(catalog: Catalog) -> gettext.GNUTranslations:
    """The catalog as gettext reads it (compiled in memory): its ``ngettext`` applies the
    language's ``Plural-Forms``."""
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def load_catalog(lang: str) -> dict[str, str]:
    """One language's texts by key, read from its file."""
    return texts_of(read_catalog(lang))


def load_plurals(lang: str) -> dict[str, tuple[str, ...]]:
    """One language's entries with plural forms, read from its file."""
    return plurals_of(read_catalog(lang))


_FILES: Final = {lang: read_catalog(lang) for lang in LANGUAGES}
CATALOGS: Final[dict[str, dict[str, str]]] = {
    lang: texts_of(catalog) for lang, catalog in _FILES.items()}
PLURALS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    lang: plurals_of(catalog) for lang, catalog in _FILES.items()}
TRANSLATIONS: Final[dict[str, gettext.GNUTranslations]] = {
    lang: translations_of(catalog) for lang, catalog in _FILES.items()}
#: The English catalog: every key there is (the plural entries are ``PLURALS["en"]``).
EN: Final = CATALOGS[DEFAULT]

_current: contextvars.ContextVar[str] = contextvars.ContextVar("bot_language", default=DEFAULT)
#: The faces the cards being worded show (``showing``): German unless a table shows others.
_faces: contextvars.ContextVar[str] = contextvars.ContextVar("bot_faces", default="german")


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


@contextlib.contextmanager
def showing(faces: str) -> Iterator[None]:
    """Name the cards as ``faces`` show them inside the block (``"german"`` or ``"french"``,
    as ``bot.cardart.faces_for`` resolves a table's): a Doppelkopf table's Queen of clubs is
    no Ober of acorns.

    >>> with showing("french"):
    ...     card_word("EO")
    'Queen of clubs'
    >>> card_word("EO")
    'Ober of acorns'
    """
    token = _faces.set(faces if faces in SUIT_SIGNS else "german")
    try:
        yield
    finally:
        _faces.reset(token)


def show_faces(faces: str) -> None:
    """Name the cards as ``faces`` show them from now on in this task (an interaction's
    handler, once it knows the table: its refusals, hints and reviews too; the task ends
    with the interaction). Elsewhere use ``showing``."""
    _faces.set(faces if faces in SUIT_SIGNS else "german")


def current_faces() -> str:
    return _faces.get()


def faced(key: str) -> str:
    """The catalog key that names a card or suit (``suit.E``, ``rank.O``, ``trump.top.OU``)
    on the faces in force: ``suit.french.E``, ``trump.top.french.OU`` on French faces where
    the catalog has it, else ``key`` itself (the Tens are named alike on both).

    >>> with showing("french"):
    ...     faced("trump.top.OU"), faced("rank.10")
    ('trump.top.french.OU', 'rank.10')
    """
    faces = _faces.get()
    if faces not in NAMED_FACES:
        return key
    kind, _, rest = key.rpartition(".")
    own = f"{kind}.{faces}.{rest}"
    return own if has_text(own) else key


def hungarian_article(word: str) -> str:
    """``a`` or ``az``: ``az`` before a vowel sound. Letters are read by their names (az A,
    az F — "ef", a B), numbers as said ("az 1." — egy, "az 5." — öt, "a 10." — tíz,
    "az 50." — ötven); a mention or emoji begins no word, so it takes ``a``.

    >>> [hungarian_article(w) for w in ("A", "B", "F", "ász", "makk", "1.", "5", "10", "1000")]
    ['az', 'a', 'az', 'az', 'a', 'az', 'az', 'a', 'az']
    """
    word = word.strip().lstrip("„\"'(*_~")
    digits = re.match(r"\d+", word)
    if digits:
        return "az" if _number_starts_with_vowel(int(digits.group())) else "a"
    letters = re.match(r"[^\W\d_]+", word)
    if not letters:
        return "a"
    first = letters.group()
    if len(first) == 1 and first.isupper():
        return "az" if first in "AÁEÉFIÍLMNOÓÖŐRSUÚÜŰXY" else "a"
    return "az" if first[0].lower() in "aáeéiíoóöőuúüű" else "a"


def _number_starts_with_vowel(n: int) -> bool:
    """Whether a number said in Hungarian begins with a vowel: egy (1), öt (5), ötven,
    ötszáz, ezer (1000–1999), egymillió…; tíz, száz (100–199) and the rest do not."""
    for size in (1_000_000_000, 1_000_000, 1_000):
        if n >= size:
            lead = n // size
            if size == 1_000 and lead == 1:
                return True  # ezer
            return _number_starts_with_vowel(lead)
    if n >= 100:
        return n // 100 == 5  # száz, kétszáz… ötszáz
    if n >= 10:
        return n // 10 == 5  # tíz, húsz… ötven
    return n in (1, 5)


class _Formatter(string.Formatter):
    """``str.format`` plus the ``az`` / ``Az`` spec: the Hungarian article, then the
    value."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in ("az", "Az"):
            word = format(value)
            article = hungarian_article(word)
            if format_spec == "Az":
                article = article.capitalize()
            return f"{article} {word}"
        return str(super().format_field(value, format_spec))


FORMATTER: Final = _Formatter()


def template(key: str, count: Any = None) -> str:
    """The catalog's text ``key`` in the current language, unfilled: for an entry with
    plural forms, the form for ``count``.

    >>> template("result.next_dealer"), template("n.points", 1)
    ('{user} deals next.', '{count} pt')
    """
    lang = _current.get()
    text = CATALOGS[lang].get(key)
    if text is None and key in PLURALS[DEFAULT]:
        if key not in PLURALS[lang]:
            lang = DEFAULT
        text = TRANSLATIONS[lang].ngettext(key, key, count)
    if text is None:
        text = EN[key]
    return text


def t(key: str, **params: Any) -> str:
    """The text ``key`` in the current language with ``params`` filled in. An entry with
    plural forms takes the form for ``params["count"]``."""
    text = template(key, params["count"] if key in PLURALS[DEFAULT] else None)
    # Most texts have no field, or none with the Hungarian article: str.format does what
    # the Formatter does for them, several times faster (texts are made on every move).
    if "{" not in text and "}" not in text:
        return text
    if "az}" in text or "Az}" in text:
        return FORMATTER.vformat(text, (), params)
    return text.format_map(params)


def has_text(key: str) -> bool:
    """Whether the catalog words ``key`` (the views word a game's own phases, facts and
    choices when a text exists, and show them plainly otherwise)."""
    return key in EN or key in PLURALS[DEFAULT]


def date_text(iso: str | None) -> str:
    """A day (``since`` of a status) as a Discord timestamp, which each reader's own client
    shows in its language and date style ("23 November 2026", "2026. november 23.");
    ``?`` when unknown. Stored times are UTC; an old one without a zone is taken as UTC."""
    if not iso:
        return "?"
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    # Discord's timestamp markup (``discord.utils.format_dt``'s "D" style), written here so
    # that the catalogs' module needs no Discord library (the voice reads it).
    return f"<t:{int(moment.timestamp())}:D>"


def card_label(c: int) -> str:
    """A card for people: suit sign and rank in the current language, e.g. ``🍃 Ober`` in
    English, ``🍃 filicău`` in Romanian. A non-breaking space joins them: a card never
    breaks over two lines of a narrow screen."""
    return (f"{SUIT_SIGNS[_faces.get()][suit_of(c)]}{CARD_SPACE}"
            f"{t(faced('rank.' + RANK_CODES[rank_of(c)]))}")


#: Between a card's suit sign and its rank (a no-break space).
CARD_SPACE = "\u00a0"


def card_labels(c: int) -> set[str]:
    """The card's label in every language and on every faces (to look for a card in any
    message)."""
    labels = set()
    for lang in LANGUAGES:
        for faces in SUIT_SIGNS:
            with speaking(lang), showing(faces):
                labels.add(card_label(c))
    return labels


def suit_label(s: int) -> str:
    return f"{SUIT_SIGNS[_faces.get()][s]} {t(faced('suit.' + suit_letter(s)))}"


def team_name(team: int) -> str:
    return "ABCDEF"[team]


#: Texts about points that have a card-point wording: a game that counts card points (Ace 11,
#: Ten 10, King 4, Ober 3, Unter 2: the Schafkopf games, Filkó with Hats) names them as its
#: players do ("Augen" in German, "lappont" in Hungarian), one that counts Aces and Tens
#: (Filicău, Filkó, Filcau) as plain points ("Punkte", "pont").
CARD_POINT_TEXTS: Final = {"table.points": "table.card_points",
                           "result.points_line": "result.card_points_line",
                           "n.points": "n.card_points"}


def points_text(key: str, scoring: Sequence[int], /, **params: Any) -> str:
    """``t(key, **params)`` worded for a game whose cards score ``scoring`` (its rules'
    ``points``, card by card).

    >>> with speaking("de"):
    ...     points_text("n.points", (1, 1, 0, 0, 0, 0, 0, 0) * 4, count=6)
    ...     points_text("n.points", CARD_POINTS, count=61)
    '6 Punkte'
    '61 Augen'
    """
    return t(points_key(key, scoring), **params)


def points_key(key: str, scoring: Sequence[int], /) -> str:
    """The text about points ``key`` for a game whose cards score ``scoring``: its
    card-point wording where the game counts card points (``points_text``)."""
    if key in CARD_POINT_TEXTS and tuple(scoring) == CARD_POINTS:
        return CARD_POINT_TEXTS[key]
    return key


def game_title(game: str, default: str) -> str:
    """A game's name in the current language (``default``, the engine's, for a game the
    catalogs do not know yet)."""
    key = f"game.{game}"
    return t(key) if has_text(key) else default


def refusal(key: str, params: Mapping[str, Any]) -> str:
    """A refusal (``illegal.*`` from the engine, ``err.*`` from the table) in the current
    language, its engine parameters worded: a suit the engine names in English (``hearts``,
    ``trumps``) becomes the suit's label or the word for trump, a card code the card's
    label; other parameters are used as they are.

    >>> refusal("illegal.must_follow", {"card": "EO", "suit": "hearts"})
    'You must follow suit (❤️ hearts).'
    """
    worded = dict(params)
    suit = worded.get("suit")
    if suit == "trumps":
        worded["suit"] = t("word.trumps")
    elif suit in SUIT_NAMES:
        worded["suit"] = suit_label(SUIT_NAMES.index(suit))
    if isinstance(worded.get("card"), str):
        with contextlib.suppress(CardError):
            worded["card"] = card_label(card(worded["card"]))
    return t(key, **worded)


def card_word(c: int | str) -> str:
    """A card named in a sentence, in the current language: ``Ober of acorns``,
    ``filicău de ghindă``, ``makk felső``, ``Eichel-Ober`` (``EO`` or its number)."""
    c = card(c) if isinstance(c, str) else c
    return t("card.word", rank=t(faced("rankname." + RANK_CODES[rank_of(c)])),
             suit=t(faced("suit." + suit_letter(suit_of(c)))))


def card_words(cards: Sequence[int | str]) -> str:
    """Several cards in a sentence, in order: ``makk felső, zöld felső``."""
    return ", ".join(card_word(c) for c in cards)


def option_name(name: str) -> str:
    """A table option's name in the current language (``early_end`` → ``korai vég``); a
    name without a text is shown plainly, without underscores."""
    key = f"option.{name}"
    return t(key) if has_text(key) else name.replace("_", " ")


def option_value(name: str, value: Any) -> str:
    """An option's value in the current language: the option's own word for it
    (``value.deals.0``: no set length), else the shared one (``value.True``: on), else the
    value itself."""
    for key in (f"value.{name}.{value}", f"value.{value}"):
        if has_text(key):
            return t(key)
    return str(value)


def option_text(name: str, value: Any) -> str:
    """``early end: on``: a table option and its value, worded."""
    return t("option.line", option=option_name(name), value=option_value(name, value))


def option_error(option: str, value: Any, reason: str,
                 details: Mapping[str, Any] | None = None) -> str:
    """Why a table option's value does not work, worded for the opener:

    - ``unknown``: the game has no such option;
    - ``choice``: not one of ``details["choices"]``;
    - ``range``: outside ``details["low"]``–``details["high"]``;
    - ``multiple``: not a multiple of ``details["step"]``;
    - ``invalid`` (and any reason not known here): plainly not valid.

    The result goes into ``err.bad_options`` (``problem``); several problems are joined with
    "; "."""
    details = dict(details or {})
    name = option_name(option) if reason != "unknown" else option
    shown = option_value(option, value)
    if reason == "choice" and "choices" in details:
        return t("opterr.choice", option=name, value=shown, choices=" / ".join(
            option_value(option, c) for c in details["choices"]))
    if reason == "range" and {"low", "high"} <= details.keys():
        return t("opterr.range", option=name, value=shown, low=details["low"],
                 high=details["high"])
    if reason == "multiple" and "step" in details:
        return t("opterr.multiple", option=name, value=shown, step=details["step"])
    if reason == "unknown":
        return t("opterr.unknown", option=name)
    return t("opterr.invalid", option=name, value=shown)
