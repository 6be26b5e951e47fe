"""Draw the bot's messages as Discord shows them, at desktop and phone width, to PNG files.

A developer's tool, not a CI step: it turns captured message payloads (what the bot sent, as
the Discord fakes keep it) into HTML and CSS that approximate Discord's dark theme — the
author line, content with its markdown, mentions and countdowns, embeds with their fields and
image, rows of buttons in their styles, select menus, attached pictures, the "Only you can see
this" line of an ephemeral answer — and screenshots each page in headless Chromium.

    .venv/bin/python tools/capture_hand.py --game filicau --out /tmp/hand
    .venv/bin/python tools/render_messages.py /tmp/hand/messages.json \\
        --out docs/pictures/messages

Input: the ``messages.json`` of ``tools/capture_hand.py`` (its docstring says what it holds).
Output: ``NAME-desktop.png`` and ``NAME-phone.png`` per message (and the HTML with
``--keep-html``).

Chromium comes from the system's packages; it is no dependency of the project. If it is
missing: ``sudo apt-get install -y chromium`` (Debian) or ``chromium-browser`` (Ubuntu), or
point ``--chromium`` (or ``$CHROMIUM``) at any Chromium or Chrome binary. The suit signs and
other emoji need a colour emoji font (Debian: ``sudo apt-get install -y
fonts-noto-color-emoji``); without one they are drawn as empty boxes, and so are full-width
signs (the league's ＝) without a font that has them (Debian: ``fonts-droid-fallback``).
``--widths phone`` draws the phone's width only; ``--prefix doppelkopf-`` names the files
``doppelkopf-NAME-WIDTH.png``.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: Widths drawn, in CSS pixels: a desktop client's window and a phone.
WIDTHS = {"desktop": 1000, "phone": 400}
#: Discord's dark theme (approximate).
BG = (49, 51, 56)

BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link",
                 6: "premium"}

CSS = """
* { box-sizing: border-box; }
p { margin: 0; }
body { margin: 0; background: #313338; color: #dbdee1;
  font: 16px/1.375 "gg sans", "Noto Sans", "DejaVu Sans", "Helvetica Neue", Arial,
  "Noto Color Emoji", sans-serif; }
.msg { display: flex; gap: 16px; padding: 8px 48px 8px 16px; margin-top: 16px; }
.phone .msg { padding: 8px 12px; gap: 12px; }
.msg.ephemeral { background: rgba(88, 101, 242, 0.06); }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #2e7d32;
  color: #fff; font-weight: 700; display: flex; align-items: center; justify-content: center; }
.body { flex: 1; min-width: 0; }
.head { display: flex; align-items: baseline; gap: 6px; }
.name { color: #f2f3f5; font-weight: 500; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 600; padding: 1px 4px;
  border-radius: 3px; position: relative; top: -2px; }
.time { color: #949ba4; font-size: 12px; }
.content { white-space: normal; overflow-wrap: anywhere; }
.content p { margin: 0; min-height: 1.375em; }
.content h1, .content h2, .content h3 { margin: 8px 0 0; color: #f2f3f5; }
.content h1 { font-size: 24px; } .content h2 { font-size: 20px; }
.content h3 { font-size: 16px; }
.content .sub { font-size: 13px; color: #949ba4; }
.content blockquote { margin: 0; padding: 0 8px 0 12px; border-left: 4px solid #4e5058; }
code { font: 14px/1.2 "DejaVu Sans Mono", monospace; background: #2b2d31; padding: 1px 3px;
  border-radius: 3px; }
pre { margin: 4px 0; }
pre code { display: block; padding: 7px; background: #1e1f22; border: 1px solid #1e1f22;
  border-radius: 4px; white-space: pre; overflow-x: auto; }
.mention { background: rgba(88, 101, 242, 0.3); color: #c9cdfb; border-radius: 3px;
  padding: 0 2px; font-weight: 500; }
.stamp { background: rgba(78, 80, 88, 0.48); border-radius: 3px; padding: 0 2px; }
.spoiler { background: #1e1f22; color: #1e1f22; border-radius: 3px; }
a { color: #00a8fc; text-decoration: none; }
.embed { display: grid; width: fit-content; max-width: 520px; margin-top: 8px; background: #2b2d31;
  border-left: 4px solid #1e1f22; border-radius: 4px; padding: 8px 16px 16px 12px; }
.phone .embed { max-width: 100%; }
.embed .author { font-size: 14px; font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.embed .title { font-size: 16px; font-weight: 600; color: #f2f3f5; margin-top: 8px; }
.embed .desc { font-size: 14px; margin-top: 8px; }
.embed .fields { display: grid; grid-template-columns: repeat(12, 1fr); gap: 8px;
  margin-top: 8px; }
.embed .field { font-size: 14px; min-width: 0; }
.embed .fname { font-weight: 600; color: #f2f3f5; margin-bottom: 2px; }
.embed .image img { max-width: 100%; max-height: 300px; border-radius: 4px; margin-top: 16px; }
.embed .footer { font-size: 12px; color: #b5bac1; margin-top: 8px; }
.attachments img { display: block; margin-top: 8px; border-radius: 8px;
  max-width: min(550px, 100%); max-height: 350px; }
.phone .attachments img { max-height: none; }
.components { margin-top: 8px; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button { height: 32px; min-width: 60px; padding: 2px 16px; border-radius: 3px; border: 0;
  display: inline-flex; align-items: center; justify-content: center; gap: 4px;
  font: 500 14px/16px inherit; font-family: inherit; color: #fff; white-space: nowrap; }
.button.primary { background: #5865f2; }
.button.secondary, .button.link { background: #4e5058; }
.button.success { background: #248046; }
.button.danger { background: #da373c; }
.button.premium { background: #5865f2; }
.button.disabled { opacity: 0.5; }
.select { width: 100%; max-width: 400px; height: 40px; background: #1e1f22; border-radius: 4px;
  display: flex; align-items: center; justify-content: space-between; padding: 0 8px 0 12px;
  color: #949ba4; font-size: 15px; }
.select.disabled { opacity: 0.5; }
.select .chev { color: #dbdee1; }
.ephemeral-note { font-size: 12px; color: #949ba4; margin-top: 6px; }
.ephemeral-note a { font-size: 12px; }
"""

_TOKEN = re.compile(r"<@[!&]?\d+>|<#\d+>|<t:-?\d+(?::[tTdDfFR])?>|<a?:\w+:\d+>")
_INLINE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"__(.+?)__"), r"<u>\1</u>"),
    (re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?![\w_])"), r"<em>\1</em>"),
    (re.compile(r"~~(.+?)~~"), r"<s>\1</s>"),
    (re.compile(r"\|\|(.+?)\|\|"), r'<span class="spoiler">\1</span>'),
    (re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)"), r'<a href="\2">\1</a>'),
)


def relative(seconds: float) -> str:
    """Discord's relative time (``<t:…:R>``) in English: "in 2 minutes", "30 seconds ago"."""
    ahead = seconds >= 0
    s = abs(round(seconds))
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second")):
        if s >= size or size == 1:
            n = round(s / size)
            words = f"{n} {unit}{'' if n == 1 else 's'}"
            break
    return f"in {words}" if ahead else f"{words} ago"


def timestamp(unix: int, style: str, now: float) -> str:
    if style == "R":
        return relative(unix - now)
    moment = datetime.fromtimestamp(unix, UTC)
    formats = {"t": "%H:%M", "T": "%H:%M:%S", "d": "%d/%m/%Y", "D": "%d %B %Y",
               "f": "%d %B %Y %H:%M", "F": "%A, %d %B %Y %H:%M"}
    return moment.strftime(formats.get(style, formats["f"]))


def _token_html(token: str, users: Mapping[str, str], now: float) -> str:
    if token.startswith("<t:"):
        parts = token[3:-1].split(":")
        style = parts[1] if len(parts) > 1 else "f"
        return f'<span class="stamp">{html.escape(timestamp(int(parts[0]), style, now))}</span>'
    if token.startswith("<#"):
        # ``users`` may name channels and roles too: "#ID" and "&ID".
        name = users.get("#" + token[2:-1], "channel")
        return f'<span class="mention">#{html.escape(name)}</span>'
    if token.startswith("<@&"):
        name = users.get("&" + token[3:-1], "role")
        return f'<span class="mention">@{html.escape(name)}</span>'
    if token.startswith("<@"):
        uid = token.strip("<@!>")
        return f'<span class="mention">@{html.escape(users.get(uid, "user"))}</span>'
    return html.escape(":" + token.split(":")[1] + ":")  # a custom emoji: its name


def inline(text: str, users: Mapping[str, str], now: float) -> str:
    """One line of Discord markdown as HTML: mentions, timestamps, bold, italics, code…"""
    tokens: list[str] = []

    def keep(m: re.Match[str]) -> str:
        tokens.append(_token_html(m.group(), users, now))
        return f"\0{len(tokens) - 1}\0"

    out = html.escape(_TOKEN.sub(keep, text), quote=False)
    for pattern, repl in _INLINE:
        out = pattern.sub(repl, out)
    return re.sub(r"\0(\d+)\0", lambda m: tokens[int(m.group(1))], out)


def markdown(text: str, users: Mapping[str, str], now: float) -> str:
    """Discord markdown, line by line (headings, subtext, quotes, code blocks, lists)."""
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            block = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                block.append(lines[i])
                i += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(block))}</code></pre>")
        elif m := re.match(r"(#{1,3}) (.*)", line):
            level = len(m.group(1))
            out.append(f"<h{level}>{inline(m.group(2), users, now)}</h{level}>")
        elif line.startswith("-# "):
            out.append(f'<p class="sub">{inline(line[3:], users, now)}</p>')
        elif line.startswith("> "):
            out.append(f"<blockquote>{inline(line[2:], users, now)}</blockquote>")
        elif re.match(r"[-*] ", line):
            out.append(f"<p>• {inline(line[2:], users, now)}</p>")
        else:
            out.append(f"<p>{inline(line, users, now)}</p>")
        i += 1
    return "".join(out)


def _colour(value: Any) -> str:
    return f"#{int(value):06x}" if isinstance(value, int) else "#1e1f22"


def field_columns(fields: Sequence[Mapping[str, Any]]) -> list[str]:
    """Where each field sits in the embed's 12 columns, as Discord lays them out: up to three
    inline fields in a row share it; any other field has a row of its own."""
    out: list[str] = []
    group: list[int] = []

    def close() -> None:
        width = 12 // len(group) if group else 12
        out.extend(f"{1 + k * width} / {1 + (k + 1) * width}" for k in range(len(group)))
        group.clear()

    for i, f in enumerate(fields):
        if f.get("inline") and len(group) < 3:
            group.append(i)
            continue
        close()
        if f.get("inline"):
            group.append(i)
        else:
            out.append("1 / 13")
    close()
    return out


def embed_html(embed: Mapping[str, Any], md: Callable[[str], str],
               images: Mapping[str, str]) -> str:
    parts = []
    if author := embed.get("author", {}).get("name"):
        parts.append(f'<div class="author">{html.escape(author)}</div>')
    if title := embed.get("title"):
        parts.append(f'<div class="title">{md(title)}</div>')
    if desc := embed.get("description"):
        parts.append(f'<div class="desc content">{md(desc)}</div>')
    if fields := embed.get("fields"):
        parts.append('<div class="fields">' + "".join(
            f'<div class="field" style="grid-column: {span}">'
            f'<div class="fname">{md(f.get("name", ""))}</div>'
            f'<div class="fvalue content">{md(f.get("value", ""))}</div></div>'
            for f, span in zip(fields, field_columns(fields), strict=True)) + "</div>")
    if url := embed.get("image", {}).get("url"):
        parts.append(f'<div class="image"><img src="{html.escape(images.get(url, url))}">'
                     "</div>")
    if footer := embed.get("footer", {}).get("text"):
        parts.append(f'<div class="footer">{html.escape(footer)}</div>')
    return (f'<div class="embed" style="border-left-color: {_colour(embed.get("color"))}">'
            + "".join(parts) + "</div>")


def component_html(c: Mapping[str, Any]) -> str:
    disabled = " disabled" if c.get("disabled") else ""
    if c.get("type") == 2:
        style = BUTTON_STYLES.get(int(c.get("style", 2)), "secondary")
        emoji = c.get("emoji") or {}
        label = html.escape(str(c.get("label") or ""))
        icon = html.escape(str(emoji.get("name") or ""))
        link = " ↗" if style == "link" else ""
        custom_id = html.escape(str(c.get("custom_id", "")))
        return (f'<span class="button {style}{disabled}" data-id="{custom_id}">'
                f"{icon}{' ' if icon and label else ''}{label}{link}</span>")
    if c.get("type") in (3, 5, 6, 7, 8):
        placeholder = html.escape(str(c.get("placeholder") or "Make a selection"))
        return (f'<div class="select{disabled}"><span>{placeholder}</span>'
                '<span class="chev">⌄</span></div>')
    return ""


def components_html(rows: Sequence[Mapping[str, Any]]) -> str:
    out = []
    for row in rows:
        items = row.get("components", []) if row.get("type") == 1 else [row]
        out.append('<div class="row">' + "".join(component_html(c) for c in items) + "</div>")
    return f'<div class="components">{"".join(out)}</div>' if out else ""


def message_html(message: Mapping[str, Any], users: Mapping[str, str], bot: str,
                 now: float, files: Mapping[str, str]) -> str:
    """One message as Discord draws it. ``files``: attachment file name → image source."""
    data = message["data"]

    def md(text: str) -> str:
        return markdown(text, users, now)

    images = {f"attachment://{name}": src for name, src in files.items()}
    in_embeds = {e.get("image", {}).get("url") for e in data.get("embeds") or []}
    parts = []
    if data.get("content"):
        parts.append(f'<div class="content">{md(data["content"])}</div>')
    parts.extend(embed_html(e, md, images) for e in data.get("embeds") or [])
    shown = [src for name, src in files.items() if f"attachment://{name}" not in in_embeds
             and name.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp"))]
    if shown:
        parts.append('<div class="attachments">' + "".join(
            f'<img src="{html.escape(src)}">' for src in shown) + "</div>")
    parts.append(components_html(data.get("components") or []))
    ephemeral = message.get("ephemeral") or bool(int(data.get("flags") or 0) & 64)
    if ephemeral:
        parts.append('<div class="ephemeral-note">👁 Only you can see this · '
                     "<a>Dismiss message</a></div>")
    when = datetime.fromtimestamp(now, UTC).strftime("Today at %H:%M")
    return (f'<div class="msg{" ephemeral" if ephemeral else ""}">'
            f'<div class="avatar">{html.escape(bot[:1])}</div><div class="body">'
            f'<div class="head"><span class="name">{html.escape(bot)}</span>'
            f'<span class="tag">APP</span><span class="time">{when}</span></div>'
            + "".join(parts) + "</div></div>")


def page_html(message: Mapping[str, Any], users: Mapping[str, str], bot: str,
              files: Mapping[str, str], width_name: str) -> str:
    now = float(message.get("captured_at") or datetime.now(UTC).timestamp())
    body = message_html(message, users, bot, now, files)
    return (f'<!doctype html><html><head><meta charset="utf-8"><style>{CSS}</style></head>'
            f'<body class="{width_name}"><div id="chat">{body}</div>'
            '<div style="height: 16px"></div></body></html>')


def find_chromium(given: str | None) -> str:
    for name in (given, os.environ.get("CHROMIUM"), "chromium", "chromium-browser",
                 "google-chrome", "google-chrome-stable"):
        if name and (path := shutil.which(name)):
            return path
    sys.exit("Chromium not found. Install it from the system's packages "
             "(Debian: sudo apt-get install -y chromium; Ubuntu: chromium-browser), or give "
             "--chromium PATH (or set CHROMIUM). It is no dependency of the project.")


def screenshot(chromium: str, page: Path, png: Path, width: int, height: int = 2400) -> None:
    """``page`` drawn by headless Chromium at ``width`` CSS px, cut below its content."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--hide-scrollbars",
             "--force-device-scale-factor=1", f"--user-data-dir={profile}",
             f"--screenshot={png}", f"--window-size={width},{height}",
             page.resolve().as_uri()],
            check=True, capture_output=True, timeout=120)
    trim(png)


def trim(png: Path, pad: int = 8) -> None:
    """Cut the empty page below the message and keep the file small (a 256-colour PNG)."""
    from PIL import Image

    with Image.open(png) as img:
        rgb = img.convert("RGB")
    w, h = rgb.size
    bottom = h
    px = rgb.load()
    assert px is not None
    while bottom > 1 and all(px[x, bottom - 1] == BG for x in range(0, w, 2)):
        bottom -= 1
    cut = rgb.crop((0, 0, w, min(h, bottom + pad)))
    cut.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        png, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("messages", type=Path, help="messages.json (tools/capture_hand.py)")
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    parser.add_argument("--only", nargs="*", help="draw only these messages (by name)")
    parser.add_argument("--chromium", help="the Chromium binary (default: from PATH)")
    parser.add_argument("--keep-html", action="store_true", help="keep NAME-WIDTH.html too")
    parser.add_argument("--widths", nargs="*", choices=sorted(WIDTHS), default=list(WIDTHS),
                        help="draw only these widths (default: all)")
    parser.add_argument("--prefix", default="",
                        help="put this before each file's name (doppelkopf-: doppelkopf-NAME-…)")
    args = parser.parse_args(argv)
    dump = json.loads(args.messages.read_text())
    chromium = find_chromium(args.chromium)
    args.out.mkdir(parents=True, exist_ok=True)
    base = args.messages.resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        for message in dump["messages"]:
            if args.only and message["name"] not in args.only:
                continue
            files = {f["filename"]: (base / f["path"]).as_uri() for f in message["files"]}
            for width_name, width in WIDTHS.items():
                if width_name not in args.widths:
                    continue
                page = page_html(message, dump.get("users", {}),
                                 dump.get("bot", {}).get("name", "Bot"), files, width_name)
                stem = f"{args.prefix}{message['name']}-{width_name}"
                html_path = (args.out if args.keep_html else Path(tmp)) / f"{stem}.html"
                html_path.write_text(page)
                screenshot(chromium, html_path, args.out / f"{stem}.png", width)
                print(args.out / f"{stem}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
