"""Deals anyone can check: a documented shuffle of a seed, and a commitment to it shown
before the deal (``docs/fair-deals.md`` gives the scheme exactly, for other implementations).

The scheme ``fy-shake256/1``: the game's cards in the byte order of their codes, shuffled by
Fisher–Yates (Durstenfeld's form, from the last position down) with every choice drawn
from a SHAKE-256 stream over the seed and the cut, by rejection, so that each of the n!
orders is exactly as likely. The commitment is SHA-256 over the scheme, the game, its cards,
the seed and a secret; its first 32 hexadecimal digits are what a table shows.

>>> seed = bytes(32)
>>> shuffle(["EA", "E10", "EK", "EO"], seed)
['E10', 'EK', 'EO', 'EA']
>>> shuffle(["EA", "E10", "EK", "EO"], seed) == shuffle(["EO", "EK", "E10", "EA"], seed)
True
>>> shuffle(["EA", "E10", "EK", "EO"], seed, cut="712345678901234567")
['EO', 'EA', 'EK', 'E10']

Duplicates are fine (a pack where every card exists twice shuffles its 2n positions):

>>> sorted(shuffle(["EA", "EA", "E10", "E10"], seed))
['E10', 'E10', 'EA', 'EA']

A table seals its next deal before anybody may cut; the record of a hand in play carries only
the commitment, a finished hand's the seed and secret too:

>>> from engine import make_rules, Hand
>>> rules = make_rules("filicau")
>>> seal = Seal.new(rules, token=lambda n: bytes(n))
>>> seal.short
'3bdf 99fe 7f7a b2b6 05ff cd8c 4a59 735c'
>>> seal = seal.with_cut("712345678901234567")
>>> hand = Hand(rules, 0, seal.deal())
>>> sorted(sealed_record(hand, seal)["shuffle"])
['commitment', 'cut', 'scheme']
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.cards import Card, code
from engine.errors import EngineError
from engine.hand import Hand
from engine.record import to_record
from engine.rules.base import Rules

#: The scheme of this module; a record names its own, so that the scheme can change.
SCHEME: Final = "fy-shake256/1"
#: The schemes ``python -m engine verify`` knows.
SCHEMES: Final = frozenset({SCHEME})
#: The key of the shuffle's object in a record.
FIELD: Final = "shuffle"
#: Bytes of a seed and of a secret.
SIZE: Final = 32
#: The longest cut (in characters) a record may carry: a cut is an id, not a text.
CUT_LIMIT: Final = 200
#: Hexadecimal digits of the commitment a table shows: 128 bits, so that nobody can find two
#: deals that share them (a 48-bit prefix would take a laptop seconds to collide).
SHORT_DIGITS: Final = 32

_SHUFFLE_TAG: Final = b"filicau-bot/shuffle"
_COMMIT_TAG: Final = b"filicau-bot/commitment"
_BOARD_TAG: Final = b"filicau-bot/board"


class SealError(EngineError):
    """A seal asked for what it must not give (a secret before the hand ends), or a kept
    seal that cannot be read back."""


def _encode(*parts: bytes) -> bytes:
    """Each part preceded by its length (4 bytes, big-endian): no two lists of parts encode
    alike, whatever bytes they hold."""
    return b"".join(len(p).to_bytes(4, "big") + p for p in parts)


class _Stream:
    """SHAKE-256's output read front to back; asking for more extends it (a SHAKE output of
    n bytes is the start of every longer one)."""

    def __init__(self, data: bytes, expected: int) -> None:
        self._xof = hashlib.shake_256(data)
        self._out = self._xof.digest(max(expected, 64))
        self._at = 0

    def take(self, n: int) -> bytes:
        while self._at + n > len(self._out):
            self._out = self._xof.digest(2 * len(self._out))
        out = self._out[self._at:self._at + n]
        self._at += n
        return out

    def below(self, m: int) -> int:
        """A number from 0 to m - 1, each exactly as likely: the fewest whole bytes that can
        hold m - 1 (big-endian), again while they fall in the incomplete last run of m."""
        width = max(1, ((m - 1).bit_length() + 7) // 8)
        space = 1 << (8 * width)
        limit = space - space % m
        while True:
            v = int.from_bytes(self.take(width), "big")
            if v < limit:
                return v % m


def permutation(n: int, seed: bytes, cut: str = "", scheme: str = SCHEME) -> list[int]:
    """Where the cards of an ordered pack of ``n`` go: ``out[i]`` is the index (in the
    sorted pack) of the card that lies at position ``i``.

    >>> permutation(4, bytes(32))
    [0, 2, 3, 1]
    """
    if scheme not in SCHEMES:
        raise SealError(f"unknown shuffle scheme {scheme!r}")
    stream = _Stream(_encode(_SHUFFLE_TAG, scheme.encode(), seed, cut.encode()), 2 * n)
    order = list(range(n))
    for i in range(n - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def shuffle(pack: Sequence[str], seed: bytes, cut: str = "", scheme: str = SCHEME) -> list[str]:
    """The pack (card codes, in any order, duplicates counted) as the scheme shuffles it from
    ``seed`` and ``cut``, top card first. The codes are first put in byte order, so that the
    result depends on which cards the pack holds, not on how they were listed."""
    ordered = sorted(pack, key=str.encode)
    return [ordered[i] for i in permutation(len(ordered), seed, cut, scheme)]


def _ordered(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: code(c).encode())


def shuffled_cards(rules: Rules, seed: bytes, cut: str = "", scheme: str = SCHEME) -> list[Card]:
    """``rules``' pack shuffled: ``shuffle`` over the pack's codes, as cards. The cards
    themselves are moved, so that a game whose pack holds two cards of one code deals both."""
    ordered = _ordered(rules.pack)
    return [ordered[i] for i in permutation(len(ordered), seed, cut, scheme)]


def cards_text(pack: Sequence[str]) -> str:
    """A pack's cards as the commitment covers them: their codes in byte order, comma-joined.

    >>> cards_text(["H10", "EA", "E10"])
    'E10,EA,H10'
    """
    return ",".join(sorted(pack, key=str.encode))


def commitment(scheme: str, game: str, pack: Sequence[str], seed: bytes, secret: bytes) -> str:
    """The full commitment (64 hexadecimal digits): SHA-256 over the scheme, the game, its
    cards, the seed and the secret. The secret makes it hide the seed: a seed that could be
    guessed (a duplicate board's) is not found by trying seeds against the commitment."""
    data = _encode(_COMMIT_TAG, scheme.encode(), game.encode(), cards_text(pack).encode(),
                   seed, secret)
    return hashlib.sha256(data).hexdigest()


def short(digest: str) -> str:
    """What a table shows of a commitment: its first 32 digits in groups of four.

    >>> short("0123456789abcdef" * 4)
    '0123 4567 89ab cdef 0123 4567 89ab cdef'
    """
    head = digest[:SHORT_DIGITS]
    return " ".join(head[i:i + 4] for i in range(0, len(head), 4))


def board_seed(round_seed: str, number: int) -> bytes:
    """The seed of board ``number`` of a duplicate round: SHA-256 over the round's seed and
    the number. A finished board's record reveals its own seed only, from which neither the
    round's seed nor another board follows.

    >>> board_seed("r", 1) == board_seed("r", 1) != board_seed("r", 2)
    True
    """
    return hashlib.sha256(_encode(_BOARD_TAG, round_seed.encode(), str(number).encode())).digest()


@dataclass(frozen=True)
class Seal:
    """A deal decided before it is dealt: the seed, the secret that hides it and, once a
    player has cut, the cut. Made before the deal (``new``), shown by its ``short`` form,
    cut (``with_cut``), dealt (``deal``), written into the hand's public record by
    ``sealed_record``, which reveals the seed and the secret only once the hand is over.

    Its ``repr`` leaves the seed and the secret out, so that a log line does not leak them;
    ``kept`` and ``from_kept`` are for the bot's own store, never for anything shown."""

    game: str
    #: The game's cards, as the hand deals them (the rules' pack).
    cards: tuple[Card, ...] = field(repr=False)
    seed: bytes = field(repr=False)
    secret: bytes = field(repr=False)
    cut: str = ""
    scheme: str = SCHEME

    @classmethod
    def new(cls, rules: Rules, *, seed: bytes | None = None,
            token: Callable[[int], bytes] = secrets.token_bytes) -> Seal:
        """A new seal for a deal of ``rules``: a fresh secret, and a fresh seed unless one is
        given (a duplicate board's, ``board_seed``). ``token`` draws the random bytes."""
        secret = token(SIZE)
        return cls(rules.game, tuple(rules.pack), token(SIZE) if seed is None else seed, secret)

    def __post_init__(self) -> None:
        if len(self.seed) != SIZE or len(self.secret) != SIZE:
            raise SealError(f"a seed and a secret are {SIZE} bytes each")
        if len(self.cut) > CUT_LIMIT:
            raise SealError(f"a cut is at most {CUT_LIMIT} characters")
        if self.scheme not in SCHEMES:
            raise SealError(f"unknown shuffle scheme {self.scheme!r}")

    @property
    def codes(self) -> list[str]:
        return [code(c) for c in self.cards]

    @property
    def commitment(self) -> str:
        """The full commitment, as a record carries it."""
        return commitment(self.scheme, self.game, self.codes, self.seed, self.secret)

    @property
    def short(self) -> str:
        """The commitment as a table shows it before the deal."""
        return short(self.commitment)

    def with_cut(self, cut: str) -> Seal:
        """The seal once a player has cut: ``cut`` is something neither the bot nor any one
        player chooses, given after the commitment was shown (the id Discord gives the click
        that deals). The commitment does not change; the cards do."""
        return replace(self, cut=cut)

    def deal(self) -> list[Card]:
        """The pack to deal, top card first."""
        ordered = _ordered(self.cards)
        return [ordered[i] for i in permutation(len(ordered), self.seed, self.cut, self.scheme)]

    def public(self) -> dict[str, Any]:
        """What a record of the hand in play carries: the scheme, the commitment and (once
        given) the cut. Nothing here tells a card."""
        out: dict[str, Any] = {"scheme": self.scheme, "commitment": self.commitment}
        if self.cut:
            out["cut"] = self.cut
        return out

    def revealed(self, hand: Hand, *, abandoned: bool = False) -> dict[str, Any]:
        """The record's ``shuffle`` once ``hand`` is over: the public part, the seed and the
        secret. Refused while the hand is in play, unless the table gave it up for good
        (``abandoned``: nobody will play its cards)."""
        if not (hand.finished or abandoned):
            raise SealError("the seed and the secret stay hidden until the hand is over")
        if hand.rules.game != self.game:
            raise SealError(f"this seal is for {self.game}, not {hand.rules.game}")
        return {**self.public(), "seed": self.seed.hex(), "secret": self.secret.hex()}

    def kept(self) -> dict[str, Any]:
        """Everything, for the bot's own store (a restart must deal the sealed cards):
        never shown, never exported."""
        return {"game": self.game, "scheme": self.scheme, "seed": self.seed.hex(),
                "secret": self.secret.hex(), "cut": self.cut}

    @classmethod
    def from_kept(cls, obj: Mapping[str, Any], rules: Rules) -> Seal:
        """A seal ``kept`` wrote, for a table of ``rules``."""
        try:
            game, scheme = str(obj["game"]), str(obj["scheme"])
            seed, secret = bytes.fromhex(obj["seed"]), bytes.fromhex(obj["secret"])
            cut = str(obj.get("cut") or "")
        except (KeyError, TypeError, ValueError) as e:
            raise SealError(f"not a kept seal: {e}") from None
        if game != rules.game:
            raise SealError(f"this seal is for {game}, not {rules.game}")
        return cls(game, tuple(rules.pack), seed, secret, cut, scheme)


def sealed_record(hand: Hand, seal: Seal, *, abandoned: bool = False) -> dict[str, Any]:
    """The public record of ``hand`` dealt from ``seal``: ``to_record`` with the ``shuffle``
    object, which carries the seed and the secret only once the hand is over (or
    ``abandoned``). The one way the bot writes what players may see."""
    if hand.rules.game != seal.game or list(hand.pack) != seal.deal():
        # A record that would fail its own check is a bug here, not a record to write.
        raise SealError("this hand was not dealt from this seal")
    over = hand.finished or abandoned
    return {**to_record(hand),
            FIELD: seal.revealed(hand, abandoned=abandoned) if over else seal.public()}
