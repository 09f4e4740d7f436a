"""The stand-in's sharding, as Discord documents it: IDENTIFY carries [shard_id,
shard_count]; a shard's READY lists only its guilds; a guild's events go to shard
(guild_id >> 22) % shard_count; events without a guild (DMs) to shard 0; GET
/gateway/bot tells the recommended shards and max_concurrency."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from tests.standin import StandIn
from tests.standin.server import shard_of


async def session(http: aiohttp.ClientSession, standin: StandIn, shard: list[int]) -> Any:
    ws = await http.ws_connect(f"ws://127.0.0.1:{standin.port}/gateway")
    hello = json.loads((await ws.receive()).data)
    assert hello["op"] == 10
    await ws.send_str(
        json.dumps({"op": 2, "d": {"token": "t", "intents": 1 | (1 << 9) | (1 << 12), "shard": shard}})
    )
    return ws


async def frames(ws: Any, n: int) -> list[dict[str, Any]]:
    return [json.loads((await ws.receive(timeout=5)).data) for _ in range(n)]


async def test_guild_events_go_to_their_shard_and_dms_to_shard_0() -> None:
    standin = await StandIn().start()
    try:
        g0, ch0 = standin.add_guild(0, 2)
        g1, ch1 = standin.add_guild(1, 2)
        assert (shard_of(g0, 2), shard_of(g1, 2)) == (0, 1)
        on0 = [g for g in standin.guild_ids if shard_of(g, 2) == 0]
        async with aiohttp.ClientSession() as http:
            s0 = await session(http, standin, [0, 2])
            s1 = await session(http, standin, [1, 2])
            ready0 = await frames(s0, 1 + len(on0))
            ready1 = await frames(s1, 1 + len(standin.guild_ids) - len(on0))
            assert ready0[0]["t"] == "READY" and ready0[0]["d"]["shard"] == [0, 2]
            assert {g["id"] for g in ready0[0]["d"]["guilds"]} == {str(g) for g in on0}
            assert [f["d"]["id"] for f in ready1[1:]] == [str(g1)] or str(g1) in {
                f["d"]["id"] for f in ready1[1:]
            }
            assert all(f["t"] == "GUILD_CREATE" for f in ready0[1:] + ready1[1:])
            await standin.wait_shards([0, 1])
            # A message in guild 1's channel reaches shard 1 only.
            await standin.post_message(ch1, {"content": "hello"}, [], standin.owner_id)
            (f,) = await frames(s1, 1)
            assert f["t"] == "MESSAGE_CREATE" and f["d"]["guild_id"] == str(g1)
            # An interaction in guild 0 reaches shard 0; a DM interaction too.
            standin.add_user(501, "ann")
            await standin.interact(501, 3, ch0, {"custom_id": "x", "component_type": 2}, "")
            (f,) = await frames(s0, 1)
            assert f["t"] == "INTERACTION_CREATE" and f["d"]["guild_id"] == str(g0)
            dm = standin.snowflake()
            standin.channels[dm] = {"id": str(dm), "type": 1, "recipients": [standin.users[501]]}
            await standin.interact(501, 3, dm, {"custom_id": "y", "component_type": 2}, "")
            (f,) = await frames(s0, 1)
            assert f["t"] == "INTERACTION_CREATE" and "guild_id" not in f["d"]
            # Nothing else reached shard 1.
            with pytest.raises(TimeoutError):
                await s1.receive(timeout=0.3)
            async with http.get(
                f"{standin.base}/api/v10/gateway/bot", headers={"Authorization": "Bot t"}
            ) as r:
                body = await r.json()
            assert body["shards"] == 1 and body["session_start_limit"]["max_concurrency"] == 1
            await s0.close()
            await s1.close()
    finally:
        await standin.close()
