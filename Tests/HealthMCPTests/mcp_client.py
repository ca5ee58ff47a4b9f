"""Drives `healthetl mcp` with the official MCP Python SDK, as a real client does, and prints what it saw as JSON.

    mcp_client.py <healthetl> <database> <program.json> [--timeout-ms N]

The program is a JSON list of steps, run in order over one session (stdio, the SDK's `Client` in its default
"auto" mode: it probes `server/discover`, then falls back to the initialize handshake):

    {"call": "metric_series", "arguments": {...}}   one tools/call
    {"list": "tools" | "prompts" | "resources"}
    {"read": "healthetl://docs/schema"}
    {"prompt": "weekly_review", "arguments": {...}}
    {"ping": true}
    {"hash": true}                                   sha256 of the database file
    {"run": ["healthetl", "import", ...]}            a command, to its end
    {"while_running": [argv...], "call": ..., "arguments": ...}
                                                     start a command, call the tool until it ends, then once more

Each step's result is one element of the printed list. The Swift tests (MCPClientTests) compare them with SQL.
"""

import asyncio
import hashlib
import json
import subprocess
import sys
import time

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters


def tool_result(result):
    text = "".join(block.text for block in result.content if getattr(block, "type", "") == "text")
    return {"is_error": bool(result.is_error), "structured": result.structured_content, "text": text}


async def call(client, name, arguments):
    try:
        return tool_result(await client.call_tool(name, arguments))
    except Exception as error:  # a protocol error is a result too: the test decides
        return {"exception": f"{type(error).__name__}: {error}"}


def sha256(path):
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()


async def main():
    executable, database, program_path = sys.argv[1:4]
    extra = sys.argv[4:]
    with open(program_path) as file:
        program = json.load(file)
    server = StdioServerParameters(command=executable, args=["mcp", "--db", database, *extra])
    results = []
    started = time.monotonic()
    async with Client(server) as client:
        session = client.session
        results.append({
            "handshake": {
                "protocol_version": session.protocol_version,
                "server_name": session.server_info.name if session.server_info else None,
                "instructions": session.instructions,
                "seconds": time.monotonic() - started,
            }
        })
        for step in program:
            if "while_running" in step:
                process = subprocess.Popen(step["while_running"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                during = []
                while process.poll() is None:
                    during.append(await call(client, step["call"], step.get("arguments", {})))
                    await asyncio.sleep(0.05)
                after = await call(client, step["call"], step.get("arguments", {}))
                results.append({"exit": process.returncode, "during": during, "after": after})
            elif "call" in step:
                results.append(await call(client, step["call"], step.get("arguments", {})))
            elif "list" in step:
                kind = step["list"]
                if kind == "tools":
                    listed = await client.list_tools()
                    results.append([
                        {"name": t.name, "input": t.input_schema, "output": t.output_schema,
                         "read_only": t.annotations.read_only_hint if t.annotations else None}
                        for t in listed.tools
                    ])
                elif kind == "prompts":
                    listed = await client.list_prompts()
                    results.append([{"name": p.name, "arguments": [a.name for a in p.arguments or []]}
                                    for p in listed.prompts])
                else:
                    listed = await client.list_resources()
                    results.append([{"uri": str(r.uri), "mime": r.mime_type} for r in listed.resources])
            elif "read" in step:
                try:
                    read = await client.read_resource(step["read"])
                    results.append({"text": read.contents[0].text, "mime": read.contents[0].mime_type})
                except Exception as error:
                    results.append({"exception": f"{type(error).__name__}: {error}"})
            elif "prompt" in step:
                try:
                    got = await client.get_prompt(step["prompt"], step.get("arguments"))
                    results.append({"messages": [m.content.text for m in got.messages]})
                except Exception as error:
                    results.append({"exception": f"{type(error).__name__}: {error}"})
            elif "ping" in step:
                await session.send_ping()
                results.append({"pong": True})
            elif "hash" in step:
                results.append({"sha256": sha256(database)})
            elif "run" in step:
                finished = subprocess.run(step["run"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                results.append({"exit": finished.returncode, "stderr": finished.stderr[-400:]})
    json.dump(results, sys.stdout)


asyncio.run(main())
