"""``python -m engine verify``: is a record's pack the one its table committed to, and the
public shuffle of its seed? (``docs/fair-deals.md``.)

>>> from engine import Hand, make_rules
>>> from engine.shuffle import Seal, sealed_record
>>> rules = make_rules("filicau")
>>> seal = Seal.new(rules, token=lambda n: bytes(n))
>>> hand = Hand(rules, 0, seal.deal())
>>> [f["reason"] for f in verify(sealed_record(hand, seal))["failures"]]
['not_revealed']
>>> record = sealed_record(hand, seal, abandoned=True)
>>> verify(record)["verified"]
True
>>> record["pack"][0], record["pack"][1] = record["pack"][1], record["pack"][0]
>>> [f["reason"] for f in verify(record)["failures"]]
['pack_mismatch']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from engine.cards import code
from engine.errors import EngineError
from engine.record import ReplayError, replay
from engine.rules import make_rules
from engine.shuffle import CUT_LIMIT, FIELD, SCHEMES, commitment, short, shuffle

#: Why a record fails, each a stable key (``docs/record-format.md``).
REASONS: Final = (
    "not_json", "bad_record", "replay_failed", "no_shuffle", "bad_shuffle", "unknown_scheme",
    "not_revealed", "commitment_mismatch", "pack_mismatch",
)

_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


def failure(reason: str, message: str, **more: Any) -> dict[str, Any]:
    assert reason in REASONS, reason
    return {"reason": reason, "message": message, **more}


def verdict(failures: list[dict[str, Any]], shuffle_obj: Mapping[str, Any] | None = None,
            game: str | None = None) -> dict[str, Any]:
    """What ``verify`` prints: ``verified`` (true only when no check failed), what the
    record says it committed to, and every failure with its ``reason``."""
    digest = shuffle_obj.get("commitment") if shuffle_obj is not None else None
    digest = digest.lower() if isinstance(digest, str) and _HEX64.fullmatch(digest) else None
    cut = shuffle_obj.get("cut") if shuffle_obj is not None else None
    return {
        "verified": not failures,
        "game": game,
        "scheme": shuffle_obj.get("scheme") if shuffle_obj is not None else None,
        "commitment": digest,
        "short": None if digest is None else short(digest),
        # A deal without a cut proves less (the seed could have been chosen): say which.
        "cut": cut if isinstance(cut, str) and cut else None,
        "failures": failures,
    }


def verify(record: Mapping[str, Any]) -> dict[str, Any]:
    """Check a record: it replays, its ``shuffle`` object is well formed and of a known
    scheme, the commitment is the hash of its seed and secret, and its pack is the shuffle of
    its seed and cut. Every check that can be made is made, so that a record with several
    faults lists them all."""
    failures: list[dict[str, Any]] = []
    try:
        replay(record)
    except ReplayError as e:
        failures.append(failure("replay_failed", str(e), action=e.action))
    game = record.get("game")
    game = game if isinstance(game, str) else None
    obj = record.get(FIELD)
    if obj is None:
        failures.append(failure("no_shuffle", "the record carries no shuffle to check (an "
                                "older record, or one dealt without a commitment)"))
        return verdict(failures, None, game)
    if not isinstance(obj, Mapping):
        failures.append(failure("bad_shuffle", f"{FIELD} must be an object"))
        return verdict(failures, None, game)
    found = _read(obj, failures)
    if found is None:
        return verdict(failures, obj, game)
    scheme, digest, seed, secret, cut = found
    options = record.get("options")
    try:
        if game is None or not isinstance(options, Mapping | None):
            raise EngineError("no game to deal")
        rules = make_rules(game, options)
    except EngineError:
        # The replay's failure says what is wrong; without the game there is no pack.
        return verdict(failures, obj, game)
    cards = [code(c) for c in rules.pack]
    if commitment(scheme, rules.game, cards, seed, secret) != digest:
        failures.append(failure(
            "commitment_mismatch", "the commitment is not the hash of this seed and secret "
            "for this game's cards: the seed, the secret, the game or the commitment changed"))
    expected = shuffle(cards, seed, cut, scheme)
    pack = record.get("pack")
    given: list[Any] = [c.strip().upper() if isinstance(c, str) else c for c in pack] \
        if isinstance(pack, list) else []
    if given != expected:
        at = next((i for i, (a, b) in enumerate(zip(given, expected, strict=False)) if a != b),
                  None)
        failures.append(failure(
            "pack_mismatch", "the pack is not the shuffle of this seed and cut" +
            (f": position {at} holds {given[at]!r}, the shuffle puts {expected[at]!r} there"
             if at is not None else f": it holds {len(given)} cards, not {len(expected)}"),
            position=at))
    return verdict(failures, obj, game)


def _read(obj: Mapping[str, Any], failures: list[dict[str, Any]]
          ) -> tuple[str, str, bytes, bytes, str] | None:
    """The shuffle object's fields, or None with the failure said."""
    scheme = obj.get("scheme")
    if scheme not in SCHEMES:
        failures.append(failure("unknown_scheme", f"unknown shuffle scheme {scheme!r} (this "
                                f"engine knows {', '.join(sorted(SCHEMES))})"))
        return None
    digest = obj.get("commitment")
    if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
        failures.append(failure("bad_shuffle", "the commitment must be 64 hexadecimal digits"))
        return None
    cut = obj.get("cut")
    if cut is None:
        cut = ""
    if not isinstance(cut, str) or len(cut) > CUT_LIMIT:
        failures.append(failure("bad_shuffle", f"a cut is a text of at most {CUT_LIMIT} "
                                "characters"))
        return None
    seed, secret = obj.get("seed"), obj.get("secret")
    if seed is None or secret is None:
        failures.append(failure("not_revealed", "the record does not reveal the seed and the "
                                "secret yet (a hand in play)"))
        return None
    if not (isinstance(seed, str) and _HEX64.fullmatch(seed)
            and isinstance(secret, str) and _HEX64.fullmatch(secret)):
        failures.append(failure("bad_shuffle", "the seed and the secret must be 64 "
                                "hexadecimal digits each"))
        return None
    return scheme, digest.lower(), bytes.fromhex(seed), bytes.fromhex(secret), cut
