"""Drive `vaultspec mcp --http` with the official Python MCP SDK.

Usage: python_sdk_http.py URL TOKEN MODE
MODE is `legacy` (the 2025-11-25 handshake, a session) or `2026-07-28`
(no handshake, no session). The vault must hold the plan of feature
`interop` with one step, as the Rust test makes it.

Calls every tool the server lists, in order, with arguments that fit its
schema, and prints one JSON line: the negotiated protocol version, the tool
names, and for each tool whether its result was a tool error. A protocol
failure raises, so the script exits non-zero.
"""

import asyncio
import json
import sys

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

PLAN = "interop"

ARGUMENTS = {
    "find": {},
    "create": {"documents": [{"feature": PLAN, "type": "research", "topic": "python", "date": "2026-03-02"}]},
    "edit": {"operations": [{"target": "2026-03-02-interop-python-research", "operation": "append_section",
                             "section": "## Findings", "content": "The Python SDK was here."}]},
    "status": {},
    "check": {},
    "search": {"query": "python findings"},
    "crossref": {"ref": "2026-03-02-interop-python-research"},
    "plan_progress": {"plan": PLAN, "steps": [{"step_id": "S01", "state": "checked"}]},
    "plan_edit": {"plan": PLAN, "operations": [{"operation": "add", "action": "write the notes", "scope": "docs/x.md"}]},
    "log": {"feature": PLAN, "plan": PLAN, "step": "S01", "rows": ["`A` `docs/x.md`"]},
    "discover": {"query": "list the documents"},
    "invoke": {"verb": "vault list"},
}


async def main(url: str, token: str, mode: str) -> None:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    transport = streamable_http_client(url, http_client=http)
    async with http, Client(transport, mode=mode) as client:
        tools = [tool.name for tool in (await client.list_tools()).tools]
        called = {}
        for name in tools:
            result = await client.call_tool(name, ARGUMENTS.get(name, {}))
            called[name] = bool(result.is_error)
        print(json.dumps({"protocol": client.protocol_version, "tools": tools, "errors": called}))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
