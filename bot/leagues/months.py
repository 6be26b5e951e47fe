"""A league's seasons: calendar months in UTC, and the moment a stored time stands for.

A month runs from its first day's 00:00:00.000000 UTC to the next month's first instant,
which already belongs to the next month: a hand finished at 23:59:59.999 on the 31st counts
in the month it ends, one finished at 00:00 on the 1st in the new one. Stored times are ISO
text (``finished_at``, ``datetime.isoformat``); one written with another offset is moved to
UTC first, and one written without an offset is taken as UTC (the bot writes UTC).

>>> Month.of("2026-01-31T23:59:59.999+00:00"), Month.of("2026-02-01T00:00:00+00:00")
(Month(year=2026, number=1), Month(year=2026, number=2))
>>> Month.of("2026-02-01T00:30:00+01:00")  # 23:30 on 31 January in UTC
Month(year=2026, number=1)
>>> str(Month(2026, 12).next()), str(Month.parse("2026-01").previous())
('2027-01', '2025-12')
>>> Month(2026, 2).end
datetime.datetime(2026, 3, 1, 0, 0, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

_TEXT = re.compile(r"(?P<year>[0-9]{4})-(?P<number>[0-9]{2})")


def instant(moment: str | datetime) -> datetime:
    """``moment`` as an aware time in UTC (a stored ISO text, or a datetime).

    >>> instant("2026-03-01T01:00:00+02:00").isoformat()
    '2026-02-28T23:00:00+00:00'
    >>> instant("2026-03-01T01:00:00").isoformat()
    '2026-03-01T01:00:00+00:00'
    """
    when = datetime.fromisoformat(moment) if isinstance(moment, str) else moment
    if when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when.astimezone(UTC)


@dataclass(frozen=True, order=True)
class Month:
    """A calendar month in UTC (``number`` 1 for January); months order by time."""

    year: int
    number: int

    def __post_init__(self) -> None:
        if not 1 <= self.number <= 12 or not 1 <= self.year <= 9998:
            raise ValueError(f"no such month: {self.year}-{self.number}")

    @classmethod
    def parse(cls, text: str) -> Month:
        """The month ``YYYY-MM`` (as ``str`` writes it)."""
        found = _TEXT.fullmatch(text)
        if found is None:
            raise ValueError(f"not a month (YYYY-MM): {text!r}")
        return cls(int(found["year"]), int(found["number"]))

    @classmethod
    def of(cls, moment: str | datetime) -> Month:
        """The month (in UTC) a moment falls in."""
        when = instant(moment)
        return cls(when.year, when.month)

    @property
    def start(self) -> datetime:
        """Its first instant."""
        return datetime(self.year, self.number, 1, tzinfo=UTC)

    @property
    def end(self) -> datetime:
        """The first instant after it: the next month's start."""
        return self.next().start

    def next(self) -> Month:
        return Month(self.year + self.number // 12, self.number % 12 + 1)

    def previous(self) -> Month:
        return Month(self.year - (self.number == 1), (self.number - 2) % 12 + 1)

    def __contains__(self, moment: str | datetime) -> bool:
        return Month.of(moment) == self

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.number:02d}"


def months_ended(since: Month, now: datetime) -> list[Month]:
    """The months from ``since`` on that had ended by ``now`` (an aware time), oldest first.

    >>> from datetime import timedelta
    >>> jan = Month(2026, 1)
    >>> months_ended(jan, jan.end - timedelta(microseconds=1))
    []
    >>> [str(m) for m in months_ended(jan, datetime(2026, 3, 1, tzinfo=UTC))]
    ['2026-01', '2026-02']
    """
    if now.tzinfo is None:
        raise ValueError("the clock must give aware times (UTC)")
    ended = []
    month = since
    while month.end <= now:
        ended.append(month)
        month = month.next()
    return ended
