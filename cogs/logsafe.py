"""Nothing secret in the log, at any level (issue 27).

At DEBUG, discord.py logs every gateway event it receives whole (an interaction
carries its token, the options a player typed into /play - a secret order - and
the message it was clicked on, a private choice list), every REST request's body
(ephemeral answers: hands, purses) and URL (interaction and webhook tokens), and
aiosqlite logs every call with its arguments (snapshots, notations). This filter,
on every handler of the root logger, rewrites such records before any handler
formats them:

- a library record's structured arguments (dicts, lists, bytes, call objects) are
  replaced by a short description: a gateway event by its opcode, name and
  sequence number only; a request or response body by "body withheld";
- a library record's text arguments that are a JSON body or longer than
  ``MAX_TEXT`` characters are withheld (our own records log ids, counts and
  sentences of our choosing);
- in every record, ours included, and in tracebacks: the bot token, anything that
  looks like a bot or interaction token, and the token part of interaction and
  webhook URLs become ``(token)``.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from typing import Any

# Loggers of libraries that may dump payloads: their arguments are described, not shown.
LIBRARIES = ("discord", "aiosqlite", "asyncpg", "aiohttp", "websockets")
MAX_ARG = 400  # an address longer than this is withheld too
MAX_TEXT = 80  # a library's text argument longer than this (a body, a dump) is withheld
TOKEN = "(token)"

_PATTERNS = [
    # Interaction tokens are base64 of "interaction:<id>:<secret>".
    (re.compile(r"aW50ZXJhY3Rpb24[A-Za-z0-9_\-=.]+"), TOKEN),
    # Bot tokens: base64 user id . timestamp . HMAC.
    (re.compile(r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}"), TOKEN),
    # The token segment of interaction callback and webhook (followup) URLs.
    (re.compile(r"(/interactions/\d+/)[^/\s?'\"]+"), r"\1" + TOKEN),
    (re.compile(r"(/webhooks/\d+/)[^/\s?'\"]+"), r"\1" + TOKEN),
    (re.compile(r"(Bot |Bearer )[A-Za-z0-9_\-.]{8,}"), r"\1" + TOKEN),
]


def clean(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with every token replaced by ``(token)``."""
    for secret in secrets:
        if secret and secret in text:
            text = text.replace(secret, TOKEN)
    for pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
    return text


def describe(arg: Any) -> Any:
    """A library's log argument as it may be logged."""
    if isinstance(arg, dict):
        if "op" in arg and ("d" in arg or "t" in arg):  # a gateway event
            return f"op={arg.get('op')} t={arg.get('t')} s={arg.get('s')} (payload withheld)"
        return f"({len(arg)}-field body withheld)"
    if isinstance(arg, (bytes, bytearray, memoryview)):
        return f"({len(arg)} bytes withheld)"
    if isinstance(arg, (list, tuple, set, frozenset)):
        return f"({len(arg)} items withheld)"
    if isinstance(arg, functools.partial) or callable(arg):
        name = getattr(getattr(arg, "func", arg), "__name__", type(arg).__name__)
        return f"<call {name}>"
    if isinstance(arg, str):
        if arg.startswith(("http://", "https://", "ws://", "wss://")) and len(arg) <= MAX_ARG:
            return arg  # an address: kept, its token parts cleaned below
        if arg.lstrip().startswith(("{", "[")) or len(arg) > MAX_TEXT:
            return f"({len(arg)}-character body withheld)"
        return arg
    if isinstance(arg, (int, float, bool, type(None), str)):
        return arg
    text = str(arg)  # an object: its text, if short (an aiohttp message, an enum...)
    return text if len(text) <= MAX_ARG else f"({type(arg).__name__} withheld)"


class Redactor(logging.Filter):
    """The filter described in the module docstring. Never drops a record."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s and len(s) >= 8)
        self._fmt = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            if record.name.split(".", 1)[0] in LIBRARIES and record.args:
                args = record.args if isinstance(record.args, tuple) else (record.args,)
                record.args = tuple(describe(a) for a in args)
            text = record.getMessage()
            cleaned = clean(text, self.secrets)
            if cleaned != text or record.args:
                record.msg, record.args = cleaned, ()
            if record.exc_info and not record.exc_text:
                record.exc_text = self._fmt.formatException(record.exc_info)
            if record.exc_text:
                record.exc_text = clean(record.exc_text, self.secrets)
            if record.stack_info:
                record.stack_info = clean(record.stack_info, self.secrets)
        except Exception:  # a record we cannot read is replaced, never let through raw
            record.msg, record.args, record.exc_info, record.exc_text = (
                "(log record withheld)",
                (),
                None,
                None,
            )
        return True


def install(root: logging.Logger | None = None) -> Redactor:
    """Put the filter on every handler of the root logger (after logging.basicConfig)."""
    root = root or logging.getLogger()
    redactor = Redactor((os.environ.get("DISCORD_TOKEN", "").strip(),))
    for handler in root.handlers:
        if not any(isinstance(f, Redactor) for f in handler.filters):
            handler.addFilter(redactor)
    return redactor
