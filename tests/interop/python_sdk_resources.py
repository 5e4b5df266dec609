"""Drive the resources, prompts and completion of `vaultspec mcp --http`
with the official Python MCP SDK, and hear a change made behind the
server's back.

Usage: python_sdk_resources.py URL TOKEN MODE VAULT_ROOT
MODE is `legacy` (2025-11-25: a session, `resources/subscribe`) or
`2026-07-28` (no session, `subscriptions/listen`). The vault must hold the
research note of feature `interop` and the skill `vaultspec-adr`, as the
Rust test makes them.

Lists the resources and reads the note back, lists the prompts and gets
one, completes a stem, then subscribes to the note, appends a line to its
file directly and waits (5 s at most) to hear of it. Prints one JSON line
of what it saw; a protocol failure raises, so the script exits non-zero.
"""

import asyncio
import json
import os
import sys

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import PromptReference, ResourceTemplateReference

STEM = "2026-03-02-interop-python-research"


async def main(url: str, token: str, mode: str, root: str) -> None:
    heard = asyncio.Queue()

    async def on_message(message) -> None:
        message = getattr(message, "root", message)
        if getattr(message, "method", None) == "notifications/resources/updated":
            await heard.put(message.params.uri)

    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    transport = streamable_http_client(url, http_client=http)
    async with http, Client(transport, mode=mode, message_handler=on_message) as client:
        seen = {"protocol": client.protocol_version}
        listed = await client.list_resources(cache_mode="bypass")
        note = next(r for r in listed.resources if r.name == STEM)
        seen["listed"] = len(listed.resources)
        read = await client.read_resource(note.uri)
        path = os.path.join(root, ".vault/research", STEM + ".md")
        with open(path, encoding="utf-8") as f:
            seen["read_exact"] = read.contents[0].text == f.read()
        by_stem = await client.read_resource(f"vault://document/{STEM}")
        seen["by_stem_exact"] = by_stem.contents[0].text == read.contents[0].text
        prompts = await client.list_prompts(cache_mode="bypass")
        seen["prompts"] = [p.name for p in prompts.prompts]
        got = await client.get_prompt("vaultspec-adr", {"task": "pick a wire format", "document": STEM})
        seen["prompt_has_task"] = "pick a wire format" in got.messages[0].content.text
        seen["prompt_attaches"] = got.messages[1].content.resource.text == read.contents[0].text
        completed = await client.complete(
            ResourceTemplateReference(type="ref/resource", uri="vault://document/{stem}"),
            {"name": "stem", "value": "2026-03-02-inter"},
        )
        seen["completed"] = completed.completion.values
        features = await client.complete(
            PromptReference(type="ref/prompt", name="vaultspec-adr"), {"name": "feature", "value": "inter"}
        )
        seen["features"] = features.completion.values

        def touch() -> None:
            with open(path, "a", encoding="utf-8") as f:
                f.write("\nA line the server did not write.\n")

        if mode == "legacy":
            await client.subscribe_resource(note.uri)
            await asyncio.sleep(0.3)
            touch()
            seen["heard"] = await asyncio.wait_for(heard.get(), 5)
        else:
            async with client.listen(resource_subscriptions=[note.uri]) as subscription:
                await asyncio.sleep(0.3)
                touch()
                event = await asyncio.wait_for(subscription.__anext__(), 5)
                seen["heard"] = event.uri
        print(json.dumps(seen))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
