"""Nothing secret in the log at any level (issue 27): the filter on the root logger's
handlers (cogs/logsafe.py), fed the lines discord.py and aiosqlite write at DEBUG."""

from __future__ import annotations

import functools
import io
import logging

from cogs.logsafe import Redactor, clean

BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
ITOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQtdG9rZW4tb2YtdGhlLWNsaWNr"


def logged(name: str, msg: str, *args: object, exc: BaseException | None = None) -> str:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    handler.addFilter(Redactor((BOT_TOKEN,)))
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        if exc is not None:
            try:
                raise exc
            except BaseException:
                logger.exception(msg, *args)
        else:
            logger.debug(msg, *args)
    finally:
        logger.removeHandler(handler)
    return out.getvalue()


def test_a_gateway_interaction_dump_keeps_only_its_name() -> None:
    event = {
        "op": 0,
        "t": "INTERACTION_CREATE",
        "s": 42,
        "d": {"token": ITOKEN, "data": {"name": "play", "options": [{"name": "move", "value": "keep food"}]}},
    }
    line = logged("discord.gateway", "For Shard ID %s: WebSocket Event: %s", None, event)
    assert "INTERACTION_CREATE" in line and "s=42" in line
    assert ITOKEN not in line and "keep food" not in line and "aW50ZXJhY3Rpb24" not in line


def test_http_bodies_and_token_urls_are_withheld() -> None:
    url = f"https://discord.com/api/v10/interactions/123/{ITOKEN}/callback?with_response=1"
    body = '{"type": 4, "data": {"content": "Your hand: 3 gold, 2 food", "flags": 64}}'
    line = logged("discord.http", "%s %s with %s has returned %s", "POST", url, body, 200)
    assert "Your hand" not in line and ITOKEN not in line and "/interactions/123/(token)" in line
    hook = f"https://discord.com/api/v10/webhooks/99/{ITOKEN}/messages/@original"
    line = logged("discord.http", "%s %s has received %s", "PATCH", hook, {"content": "Your hand: 3 gold"})
    assert "Your hand" not in line and ITOKEN not in line and "/webhooks/99/(token)" in line


def test_aiosqlite_calls_are_logged_without_their_arguments() -> None:
    call = functools.partial(print, "UPDATE games SET state=?", ('{"hand": ["secret card"]}',))
    line = logged("aiosqlite", "executing %s", call)
    assert "secret card" not in line and "executing <call print>" in line


def test_our_own_lines_and_tracebacks_lose_tokens() -> None:
    line = logged(
        "lairkeeper.cogs", "token %s in %s", BOT_TOKEN, f"/webhooks/5/{ITOKEN}", exc=ValueError(ITOKEN)
    )
    assert BOT_TOKEN not in line and ITOKEN not in line and "ValueError" in line
    assert clean(f"Authorization: Bot {BOT_TOKEN}") == "Authorization: Bot (token)"
    # Our own sentences stay readable.
    assert (
        logged("lairkeeper.tables", "game %s: move saved", 7).strip()
        == "lairkeeper.tables game 7: move saved"
    )
