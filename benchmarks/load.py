"""Load benchmark: many tables at once, the real bot process against the local Discord stand-in.

    python -m benchmarks.load --tables 200
    python -m benchmarks.load --tables 600 --processes 2 --database postgresql --think 10
    python -m benchmarks.load --tables 20 --crossplay --processes 2 --database postgresql

Each table has two simulated players (seats A0 and B1) and two computer seats, in its own
channel; the tables open 20 a second (``--ramp``), sit down, start and play their hands at the
same time. Players click at a computer's pace (``--think`` seconds after their cards are
enabled; 10 s makes a hand last about as long as people take). The stand-in
applies Discord's rate limits (50 requests/s per bot, 5 messages per 5 s per channel; the
interaction routes are exempt); with ``--validate`` it also checks every request body against
Discord's OpenAPI schema. Reported: time from INTERACTION_CREATE to the bot's callback
(p50/p99), REST calls per hand, the requests per hand that count against the bot's global
limit of 50 requests/s and the tables in play one bot token carries at that rate, table-message
edits per hand against the moves they show, the CPU seconds a hand costs the bots, their
computer players, the stand-in and PostgreSQL (unlike the latencies, hardly affected by other
work on the machine), rate-limit answers, errors.

``--database postgresql`` starts a throwaway PostgreSQL (``pgserver``, the ``[dev]`` extra)
and runs the bot on it; ``--processes N`` runs N bot processes, one shard each, sharing it
(the stand-in then has N shards and 8 guilds per shard, the tables dealt to them in turn).

``--crossplay``: tables across servers instead: each of four people in a server of their own
(four channels of four guilds, on every shard in turn), every server opted in by its manager;
the four ``/play where:everywhere`` one table after another, and the table forms from the
queue. With several processes the clicks of the servers of a process that does not drive
the table are deferred there and answered by the owner (``bot.crossplay.relay``): besides the
callback, the time to the full answer (the deferred message edited, or a follow-up) is
reported.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import resource
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from standin import BotProcess, Player, SchemaCheck, StandIn
from standin.crossgame import CrossTable
from standin.game import Table
from standin.records import Database


def throwaway_postgres(folder: Path) -> tuple[str, Any]:
    """A PostgreSQL cluster in ``folder`` (stopped and deleted at exit) and a database URL."""
    import pgserver

    server = pgserver.get_server(folder / "pg", cleanup_mode="delete")
    server.psql("CREATE DATABASE load;")
    return server.get_uri("load"), server


async def action_counts(url: str | None, db: Database, channel_ids: list[int]
                        ) -> list[tuple[int, int]]:
    """(actions, by computer) of the table in each channel."""
    if url is None:
        out = []
        for cid in channel_ids:
            row = db.table_in(cid)
            assert row is not None
            rows = db.action_rows(int(row["id"]))
            out.append((len(rows), sum(r["by_computer"] for r in rows)))
        return out
    import asyncpg

    con = await asyncpg.connect(url)
    try:
        rows = await con.fetch(
            "SELECT t.channel_id, count(a.idx) AS n, count(*) FILTER (WHERE a.by_computer) AS c "
            "FROM tables t JOIN hands h ON h.table_id = t.id JOIN actions a ON a.hand_id = h.id "
            "WHERE t.channel_id = ANY($1::bigint[]) GROUP BY t.channel_id", channel_ids)
    finally:
        await con.close()
    found = {r["channel_id"]: (r["n"], r["c"]) for r in rows}
    return [found.get(cid, (0, 0)) for cid in channel_ids]


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU time (user + system) of a running process, and of its children (those it has
    reaped and those still running): a bot's computer players' workers, the PostgreSQL
    server's backends."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:  # a child that ended meanwhile: its parent counts it
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    own, reaped = sum(int(f) for f in fields[11:13]), sum(int(f) for f in fields[13:15])
    return own / tick, reaped / tick + sum(sum(cpu_seconds(int(c))) for c in children)


def thread_cpu(pid: int) -> float:
    """CPU time of a process's threads other than its main one (the bot's event loop): the
    store's (aiosqlite), the computer players' pool's (pickling, pipes), to_thread work."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        if task.name != str(pid):
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:  # a thread that ended meanwhile (its time is lost)
                continue
            total += int(fields[11]) + int(fields[12])
    return total / tick


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def token_request(standin: StandIn, call: Any) -> str:
    """What a request made with an interaction's token did: a follow-up posted, or a public
    message (the table message, a result) or a private one (a hand view) edited or deleted."""
    m = re.fullmatch(r"/webhooks/\d+/([^/]+)(?:/messages/(@original|\d+))?", call.path)
    if m is None or m.group(2) is None:
        return f"follow-up {call.method}"
    inter = standin.interactions.get(m.group(1))
    target = (inter.original if inter is not None else None) if m.group(2) == "@original" \
        else int(m.group(2))
    msg = standin.messages.get(target) if target is not None else None
    where = "?" if msg is None else "public" if msg.audience is None else "private"
    return f"{where} {call.method}"


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


#: Discord's global limit: requests a second per bot token, whatever the number of processes.
GLOBAL_LIMIT = 50
#: Tables opened a second (unless --ramp says otherwise): the rate of the 200-table figures in
#: the README, so that more tables mean more tables in play, not a steeper burst of openings
#: (600 tables opened in 10 s would be 3,600 lobby clicks in 10 s).
OPENINGS_PER_SECOND = 20
#: A hand at human pace (seconds), for the ceiling in people's terms.
HUMAN_HAND_SECONDS = 180
#: Global-limited requests a hand measured before the table message moved to interaction
#: tokens (this benchmark, 200 tables; issue 15), for comparison.
BEFORE_GLOBAL_PER_HAND = 13.0

#: Seconds each table spent playing its hands (from Start to the last result).
PLAYING: list[float] = []


async def play_table(standin: StandIn, index: int, hands: int, think: float,
                     delay: float) -> Table:
    await asyncio.sleep(delay)  # tables open one after another over --ramp seconds
    cid = standin.channel_ids[index]
    a, b = (Player(standin, f"p{index}{x}", channel_id=cid) for x in "ab")
    table = Table(standin, [a, b], seed=index, timeout=120)
    await table.open(a, [(a, 0), (b, 1)], computers=2)
    await table.start(a)
    began = time.monotonic()
    for number in range(1, hands + 1):
        if number > 1:
            await table.next_hand(b)
        while True:
            if think:
                # The player waits until it may act, then thinks like a computer would.
                await standin.wait_for(lambda n=number: table.result(n) or table.to_act(),
                                       table.timeout, "a move", channel_id=cid)
                await asyncio.sleep(think)
            if not await table.step(number):
                break
    PLAYING.append(time.monotonic() - began)
    return table


#: One table across servers forms at a time (the queue takes the longest waiting four).
FORMING = asyncio.Lock()


async def play_crossplay(standin: StandIn, index: int, hands: int, think: float,
                         delay: float) -> CrossTable:
    """Four people of four servers queue for one table, one after another, and play it."""
    await asyncio.sleep(delay)
    cids = standin.channel_ids[4 * index:4 * index + 4]
    people = [Player(standin, f"p{index}{x}", channel_id=c) for x, c in zip("abcd", cids,
                                                                            strict=True)]
    table = CrossTable(standin, people, seed=index, timeout=120)
    async with FORMING:
        for p in people:
            await p.command("play", where="everywhere", game="filicau")
        await standin.wait_for(lambda: all(table.table_message(p) for p in people),
                               table.timeout, "the table in every server")
    for p in people:
        await table.my_hand(p)
    began = time.monotonic()
    for number in range(1, hands + 1):
        if number > 1:
            await table.next_hand(people[number % 4])
        while True:
            if think:
                await standin.wait_for(lambda n=number: table.result(n) or table.to_act(n),
                                       table.timeout, "a move")
                await asyncio.sleep(think)
            if not await table.step(number):
                break
    PLAYING.append(time.monotonic() - began)
    return table


async def opt_in(standin: StandIn) -> None:
    """Every server's manager turns play across servers on."""
    for guild in standin.guild_ids:
        cid = next((c for c in standin.channel_ids if standin.guild_of[c] == guild), None)
        if cid is None:
            continue  # a server with no table of this run
        await Player(standin, f"boss{guild % 1000}", channel_id=cid,
                     manager=True).command("admin crossplay", mode="on")


async def run(args: argparse.Namespace) -> int:
    if args.ramp is None:
        args.ramp = args.tables / OPENINGS_PER_SECOND
    schema = SchemaCheck() if args.validate else SchemaCheck.off()
    n = args.processes
    if n > 1 and args.database != "postgresql":
        print("error: several processes share PostgreSQL: add --database postgresql",
              file=sys.stderr)
        return 2
    seats = 4 if args.crossplay else 1  # channels a table is shown in
    standin = StandIn(channels=args.tables * seats, rate_limits=not args.no_rate_limits,
                      schema=schema, guilds=8 * n if n > 1 or args.crossplay else 1, shards=n)
    await standin.start()
    tmp = Path(tempfile.mkdtemp(prefix="filicau-load-"))
    db = Database(tmp / "bot.sqlite3")
    url, server = throwaway_postgres(tmp) if args.database == "postgresql" else (None, None)
    sharded = n > 1 or url is not None
    bots = [BotProcess(standin, db.path, tmp / f"bot{i}.log", edit_interval=args.edit_interval,
                       computer_delay=args.computer_delay, log_level="WARNING",
                       profile=args.profile, database_url=url,
                       sample=None if args.sample is None else
                       args.sample if n == 1 else args.sample.with_suffix(f".{i}"),
                       shard_ids=[i] if sharded else None, shard_count=n if sharded else None)
            for i in range(n)]
    for bot in bots:
        await bot.start()
    # CPU time spent while the tables play: on a shared machine the latencies depend on what
    # else runs, the CPU a hand costs much less so.
    pids = [bot.proc.pid for bot in bots if bot.proc is not None]
    if server is not None:
        pids.append(server.get_pid())
    cpu_before = own_cpu(), [cpu_seconds(pid) for pid in pids]
    threads_before = sum(thread_cpu(bot.proc.pid) for bot in bots if bot.proc is not None)
    if args.sample is not None:
        for bot in bots:  # count from here on (benchmarks.cpu_sample)
            assert bot.proc is not None
            bot.proc.send_signal(signal.SIGUSR2)
    if args.crossplay:
        await opt_in(standin)
    started = time.monotonic()
    calls_before = len(standin.calls)
    play = play_crossplay if args.crossplay else play_table
    results = await asyncio.gather(
        *(play(standin, i, args.hands, args.think, i * args.ramp / args.tables)
          for i in range(args.tables)),
        return_exceptions=True)
    elapsed = time.monotonic() - started
    # Let the last refreshes land before counting.
    await asyncio.sleep(args.edit_interval * 2)
    cpu_threads = sum(thread_cpu(bot.proc.pid) for bot in bots
                      if bot.proc is not None) - threads_before
    used = [(a - a0, b - b0) for (a, b), (a0, b0) in
            zip([cpu_seconds(pid) for pid in pids], cpu_before[1], strict=True)]
    cpu_standin = own_cpu() - cpu_before[0]
    cpu_bots, cpu_workers = sum(a for a, _ in used[:n]), sum(b for _, b in used[:n])
    cpu_pg = sum(a + b for a, b in used[n:])
    for bot in bots:
        await bot.stop()
    await standin.stop()
    bot_errors = [e for bot in bots for e in bot.errors()]

    failed = [r for r in results if isinstance(r, BaseException)]
    tables = [r for r in results if isinstance(r, Table | CrossTable)]
    inters = [i for i in standin.interactions.values() if i.sent_at >= started]
    latencies = [i.latency * 1000 for i in inters if i.latency is not None]
    answers = [i.answer_time * 1000 for i in inters if i.answer_time is not None]
    deferred = sum(1 for i in inters if i.type in (5, 6))
    unanswered = [i for i in inters if i.latency is None or i.answer_time is None]
    calls = standin.calls[calls_before:]
    hands = sum(1 for t in tables for n in range(1, args.hands + 1) if t.result(n))
    bad = [c for c in calls if c.status >= 400 and c.status != 429]
    kinds = collections.Counter(
        "callback" if c.path.startswith("/interactions/") else
        "token edit/follow-up" if c.path.startswith("/webhooks/") else
        "table edit" if c.method == "PATCH" else
        "channel message" if c.method == "POST" else f"{c.method} other"
        for c in calls if c.status != 429)
    token_kinds = collections.Counter(
        token_request(standin, c) for c in calls
        if c.status != 429 and c.path.startswith("/webhooks/"))
    counts = await action_counts(url, db, [p.channel_id for t in tables for p in t.players]
                                 if args.crossplay else [t.channel_id for t in tables])
    actions = sum(a for a, _ in counts)
    computer_moves = sum(c for _, c in counts)
    edits = 0
    for t in tables:
        if isinstance(t, CrossTable):
            # Each server's table message, posted with the table dealt.
            edits += sum(len(m.versions) - 1 for p in t.players
                         if (m := t.table_message(p)) is not None)
            continue
        msg = t.table_message()
        edits += 0 if msg is None else len(msg.versions) - 2  # minus the lobby's first two
    errors = len(failed) + len(unanswered) + len(standin.problems) + len(bad) + len(bot_errors)

    print(f"{'tables across four servers' if args.crossplay else 'tables'} {args.tables} "
          f"(opened over {args.ramp} s) · hands {hands} · {elapsed:.1f} s "
          f"· computer delay {args.computer_delay} s · edit interval {args.edit_interval} s · "
          f"think {args.think} s · schema validation {'on' if args.validate else 'off'} · "
          f"{n} process{'es' if n > 1 else ''} on {args.database}")
    print(f"interactions {len(inters)}: INTERACTION_CREATE -> callback p50 "
          f"{pct(latencies, 50):.1f} ms · p99 {pct(latencies, 99):.1f} ms · max "
          f"{max(latencies, default=float('nan')):.1f} ms")
    print(f"  full answers (a deferred click's: its webhook answer; {deferred} deferred) p50 "
          f"{pct(answers, 50):.1f} ms · p99 {pct(answers, 99):.1f} ms · max "
          f"{max(answers, default=float('nan')):.1f} ms · over 3 s: "
          f"{sum(1 for a in answers if a > 3000)}")
    by_op: dict[str, list[float]] = collections.defaultdict(list)
    for i in inters:
        if i.latency is not None:
            by_op["command" if i.custom_id is None else i.custom_id.split(":")[1]].append(
                i.latency * 1000)
    print("  by kind: " + ", ".join(f"{op} {len(v)}× p50 {pct(v, 50):.0f}/p99 {pct(v, 99):.0f}"
                                    for op, v in sorted(by_op.items())))
    per_hand = {k: v / max(hands, 1) for k, v in kinds.items()}
    print(f"REST calls per hand {sum(per_hand.values()):.1f}: "
          + ", ".join(f"{k} {v:.1f}" for k, v in sorted(per_hand.items())))
    print("  token requests per hand: " + ", ".join(
        f"{k} {v / max(hands, 1):.1f}" for k, v in sorted(token_kinds.items())))
    print(f"moves per hand {actions / max(hands, 1):.1f} (computer "
          f"{computer_moves / max(hands, 1):.1f}) · table-message edits per hand (in play) "
          f"{edits / max(hands, 1):.1f}")
    global_per_hand = sum(1 for c in calls if c.global_limited) / max(hands, 1)
    hand_seconds = statistics.mean(PLAYING) / args.hands if PLAYING else float("nan")

    def ceiling(per_hand: float, seconds: float) -> str:
        return "unlimited" if per_hand == 0 else f"{GLOBAL_LIMIT * seconds / per_hand:,.0f}"

    print(f"global-limited requests per hand {global_per_hand:.2f} (before: "
          f"{BEFORE_GLOBAL_PER_HAND:.0f}) · tables in play per bot token at "
          f"{GLOBAL_LIMIT}/s: {ceiling(global_per_hand, hand_seconds)} at this run's "
          f"{hand_seconds:.0f} s a hand (before: {ceiling(BEFORE_GLOBAL_PER_HAND, hand_seconds)}), "
          f"{ceiling(global_per_hand, HUMAN_HAND_SECONDS)} at {HUMAN_HAND_SECONDS} s a hand "
          f"(before: {ceiling(BEFORE_GLOBAL_PER_HAND, HUMAN_HAND_SECONDS)})")
    print(f"CPU seconds per hand (load-independent, unlike the latencies): bots "
          f"{cpu_bots / max(hands, 1):.3f} (other threads than the event loop's "
          f"{cpu_threads / max(hands, 1):.3f}) + their computer players' workers "
          f"{cpu_workers / max(hands, 1):.3f}, stand-in and players "
          f"{cpu_standin / max(hands, 1):.3f}"
          + (f", PostgreSQL {cpu_pg / max(hands, 1):.3f}" if server is not None else "")
          + f" · load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"rate-limit answers {standin.rate_limited} · errors {errors} (failed tables "
          f"{len(failed)}, unanswered {len(unanswered)}, refused requests {len(bad)}, "
          f"stand-in problems {len(standin.problems)}, bot log errors {len(bot_errors)})")
    for problem in [*map(repr, failed[:3]), *standin.problems[:5], *bot_errors[:5]]:
        print("  ", problem)
    if latencies:
        print(f"mean {statistics.mean(latencies):.1f} ms")
    if args.sample is not None:
        from benchmarks.cpu_sample import report
        for bot in bots:
            assert bot.sample is not None
            print(f"where the CPU of {bot.sample} went:\n{report(bot.sample)}")
    return 1 if errors else 0


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=1, help="hands per table")
    parser.add_argument("--computer-delay", type=float, default=0.5)
    parser.add_argument("--edit-interval", type=float, default=1.0)
    parser.add_argument("--think", type=float, default=0.5,
                        help="seconds a player waits before clicking (a computer's pace)")
    parser.add_argument("--ramp", type=float, default=None,
                        help="seconds over which the tables open (0: all at the same instant; "
                             f"default: {OPENINGS_PER_SECOND} tables a second, 200 tables "
                             "over 10 s)")
    parser.add_argument("--validate", action="store_true",
                        help="validate every request body against the OpenAPI schema (the "
                             "e2e tests do; here it costs the stand-in ~10 ms a request on "
                             "the cores the bot needs)")
    parser.add_argument("--no-rate-limits", action="store_true")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes, one shard each (more than one: PostgreSQL)")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--crossplay", action="store_true",
                        help="tables across servers: four people in four servers each, "
                             "formed by /play where:everywhere")
    parser.add_argument("--profile", type=Path, default=None,
                        help="run the bot under cProfile and write its stats to this file")
    parser.add_argument("--sample", type=Path, default=None,
                        help="sample the bot's CPU time while the tables play "
                             "(benchmarks.cpu_sample) and write its stacks to this file "
                             "(FILE.N for process N); the breakdown is printed at the end")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
