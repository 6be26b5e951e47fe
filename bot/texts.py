"""Every sentence the bot shows a user, in one place (translations come with issue 9).

``t(key, **params)`` formats a message; a missing key or placeholder raises at once so that
tests catch it rather than players.
"""

from __future__ import annotations

from typing import Any

from engine.cards import RANK_CODES, rank_of, suit_of

SUIT_EMOJI = ("🌰", "🍃", "❤️", "🔔")
SUIT_WORD = ("acorns", "leaves", "hearts", "bells")

EN: dict[str, str] = {
    # errors: the table
    "err.no_table": "There is no open table in this channel. Open one with `/table new`.",
    "err.gone": "This table is closed.",
    "err.channel_busy": "This channel already has an open table. Finish or cancel it first.",
    "err.not_in_lobby": "The game has already started.",
    "err.already_seated": "You already sit in that team.",
    "err.team_full": "Team {team} is full.",
    "err.no_such_team": "There are only teams A and B.",
    "err.table_full": "The table is full.",
    "err.not_seated": "You are not seated at this table.",
    "err.no_computer": "There is no computer seat to remove.",
    "err.bad_level": "Unknown computer level {level}.",
    "err.not_manager": "Only the player who opened the table or a server manager may do that.",
    "err.not_full": "Every seat must be taken before the game starts.",
    "err.no_hand": "No hand is being played at this table.",
    "err.hand_in_progress": "The hand is still being played.",
    "err.hand_over": "This hand is over.",
    "err.stale_hand": "That button belongs to an earlier hand. Press **My hand** for your cards.",
    "err.stale_trick": "That button belongs to an earlier trick. Press **My hand** again.",
    "err.not_allowed": "That is not allowed now.",
    "err.bad_button": "That button is not one of this bot's.",
    "err.bad_options": "Those options do not work: {problem}",
    "err.guild_only": "Tables can only be opened in a server channel.",
    "err.internal": "Something went wrong on our side; nothing was changed. Please try again.",
    "err.no_record": "No hand with that number at this table.",
    # errors: the rules (engine reasons)
    "illegal.not_your_turn": "It is not your turn.",
    "illegal.not_your_card": "You do not hold that card.",
    "illegal.must_follow": "You must follow suit ({suit}).",
    "illegal.must_trump": "You cannot follow suit, so you must play a trump.",
    "illegal.must_beat": "You must beat the trick if you can.",
    "illegal.hand_over": "This hand is over.",
    "illegal.wrong_phase": "That cannot be done now.",
    "illegal.no_such_seat": "There is no such seat.",
    "illegal.servant_not_opponent": "The Servant must be one of your opponents.",
    "illegal.not_allowed": "That is not allowed now.",
    # lobby
    "lobby.title": "{game} table",
    "lobby.team": "Team {team}",
    "lobby.empty": "— empty —",
    "lobby.computer": "🤖 Computer",
    "lobby.computer_level": "🤖 Computer ({level})",
    "level.easy": "Easy",
    "level.normal": "Normal",
    "level.hard": "Hard",
    "lobby.options": "Options",
    "lobby.opened_by": "Opened by {user}. Take a seat; the table starts when all seats are "
                       "taken and the opener presses **Start**. An unstarted table closes "
                       "after 15 minutes.",
    "lobby.status_masters": "Team {team} are {slaves} since {since} — {dealer} deals.",
    "lobby.status_even": "These partnerships have played before: all even — {dealer} deals.",
    "lobby.word_slaves": "slaves",
    "lobby.word_servants": "servants",
    "lobby.expired": "Nobody started this table in 15 minutes, so it closed.",
    "lobby.cancelled": "The table was cancelled.",
    "btn.join_a": "Join team A",
    "btn.join_b": "Join team B",
    "btn.leave": "Leave",
    "btn.add_cpu": "Add computer: Normal",
    "btn.add_cpu_easy": "Add computer: Easy",
    "btn.add_cpu_hard": "Add computer: Hard",
    "btn.remove_cpu": "Remove computer",
    "btn.start": "Start",
    "btn.cancel": "Cancel",
    "btn.my_hand": "My hand",
    "btn.last_trick": "Last trick",
    "btn.rules": "Rules",
    "btn.next_hand": "Next hand",
    "ok.joined": "You sit at seat {seat} in team {team}.",
    "ok.left": "You left the table.",
    # the table in play
    "table.title": "{game} — hand {number}",
    "table.trump": "Trump",
    "table.trump_line": "{suit} (shown: {shown})",
    "table.seats": "Seats",
    "table.trick": "Trick",
    "table.trick_empty": "— nobody has played yet —",
    "table.last_trick": "Last trick",
    "table.points": "Points",
    "table.points_line": "Team A {a} · Team B {b}",
    "table.turn": "{user}, your turn.",
    "table.servant_turn": "{user}: the masters choose their Servant.",
    "table.dealer": "deals",
    "table.masters": "masters",
    "table.slaves": "slaves",
    "table.servant": "Servant",
    "table.by_computer": "(played by the computer)",
    "table.no_last_trick": "No trick has been completed yet.",
    "table.last_trick_line": "{cards} — won by {user}",
    "table.unplayed": "Cards not played",
    # the hand view
    "hand.title": "Your hand — {game}, hand {number}",
    "hand.your_turn": "Your turn: the cards you may play are enabled.",
    "hand.wait": "Waiting for {user}.",
    "hand.choose_servant": "Your team are masters: choose your Servant, who deals every hand.",
    "hand.over": "The hand is over.",
    "hand.played": "You played {card}.",
    "btn.servant": "Servant: {user}",
    # results
    "result.title": "Hand {number}: Team A {a} · Team B {b}",
    "result.ran_away": "Team {team} ran away — all even.",
    "result.masters": "Team {team} are now masters, Team {other} {slaves}.",
    "result.stay_masters": "Team {team} stay masters.",
    "result.no_change": "No change.",
    "result.no_change_even": "No change: all even.",
    "result.liberated": "Team {team} turned the tables: they are masters now.",
    "result.servant_chosen": "{user} is the Servant.",
    "result.early": "The outcome could not change any more, so the hand stopped early.",
    "result.next_dealer": "{user} deals next.",
    "result.next_in": "Press **Next hand** to go on.",
    "turn.warning": "{user}, {seconds} s left to play — then the computer plays for you.",
    "turn.autoplay": "{user} timed out three times: the computer plays for them until they "
                     "press **My hand**.",
    # commands
    "cmd.table": "Open, inspect or end a card table in this channel",
    "cmd.table_new": "Open a table in this channel",
    "cmd.game": "Which game",
    "cmd.early_end": "Stop a hand once its outcome cannot change (default: on)",
    "cmd.top_trumps": "Filkó: the top trumps (default: standard)",
    "cmd.turn_seconds": "Seconds per turn before the computer plays (default 90)",
    "cmd.standings": "Server standings: who has been master how often",
    "cmd.status": "Master/servant relations in this server and who deals next",
    "cmd.rules": "A summary of a game's rules and the rulings this bot applies",
    "cmd.history": "The last hands at this channel's table, with their records",
    "cmd.history_hand": "A hand number, to download its record",
    "cmd.admin": "Server managers: reset statuses, end stuck tables",
    "cmd.admin_reset": "Make a player's partnerships even again in a game",
    "cmd.admin_end": "End the table in this channel",
    "ok.opened": "Table opened.",
    "ok.reset": "Reset {count} partnership(s) of {user} to even.",
    "ok.ended": "The table was ended.",
    # standings and status
    "standings.title": "Standings — {game}",
    "standings.none": "No hands finished in this server yet.",
    "standings.partnerships": "Partnerships",
    "standings.players": "Players",
    "standings.pair_line": "{a} vs {b}: {hands} hands · masters {made}× (A) / {made_b}× (B) · "
                           "hands as masters {held}/{held_b} · run-aways {ran}/{ran_b} · {now}",
    "standings.player_line": "{user}: {hands} hands · became masters {made}× · "
                             "{held} hands as masters · ran away {ran}×",
    "status.title": "Who serves whom",
    "status.none": "Nobody is master of anybody in this server yet.",
    "status.line": "{game}: {masters} are masters of {slaves} since {since} — {dealer} deals.",
    "status.even_line": "{game}: {a} and {b} are even — {dealer} deals.",
    "history.title": "Last hands at this table",
    "history.none": "No hands played at this table yet.",
    "history.line": "Hand {number}: {summary}",
    "history.unfinished": "in progress",
    "rules.rulings": "Rulings applied",
    "rules.options": "Options",
    # any game: lobby, table and hand views of the games whose teams form per deal
    "lobby.seats": "Seats ({players} players)",
    "lobby.turn_seconds": "turn: {seconds} s",
    "lobby.change_option": "Change an option (opener only)…",
    "lobby.status_masters_group": "{masters} are masters since {since} — {dealer} deals.",
    "btn.sit": "Take a seat",
    "ok.option_set": "{option} is now {value}.",
    "table.servants": "servants",
    "table.taken": "{points} pts",
    "table.game_facts": "This hand",
    "table.match": "Match",
    "table.match_line": "Match score: {score}.",
    "table.phase_turn": "{users}: {phase}",
    "hand.your_choice": "Your choice:",
    "hand.choose": "Choose…",
    "hand.choose_cards": "Choose {count} cards…",
    "result.hand_title": "Hand {number}",
    "result.points_line": "Points: {points}",
    "result.scores_line": "Scores: {scores}",
    "result.match_won": "🏆 {who} won the match!",
    "result.event": "{event}",
}


def t(key: str, **params: Any) -> str:
    return EN[key].format(**params)


def has_text(key: str) -> bool:
    """Whether the catalog words ``key`` (the views word a game's own phases, facts and
    choices when a text exists, and show them plainly otherwise)."""
    return key in EN


def card_label(c: int) -> str:
    """A card for people: suit sign and rank, e.g. ``🍃 O``."""
    return f"{SUIT_EMOJI[suit_of(c)]} {RANK_CODES[rank_of(c)]}"


def suit_label(s: int) -> str:
    return f"{SUIT_EMOJI[s]} {SUIT_WORD[s]}"


def team_name(team: int) -> str:
    return "ABCDEF"[team]
