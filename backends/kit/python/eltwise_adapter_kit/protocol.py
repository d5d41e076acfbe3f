"""The protocol loop of an adapter (backends/PROTOCOL.md sections 1, 2 and 13, "stdout"): the
hello, then one answer per request line until the validator closes stdin.
"""
import json
import os
import sys

PROTOCOL = "eltwise-backend/1"


def hello(name, version, ops, graph_forms=(), output_region=True, input_region=True,
          compile=None):
    """The hello: `ops` maps op-version ids to the types claimed; `graph_forms` the forms built
    besides "runtime" (the hello then lists runtime first); the regions as load_input and
    write_output use them; `compile`, for a compiling backend, how it compiles
    (backends/PROTOCOL.md section 9 item 19: compiler, target, shapes, latency_seconds)."""
    greeting = {"protocol": PROTOCOL, "name": name, "version": str(version), "ops": ops}
    if compile:
        greeting["compile"] = compile
    if graph_forms:
        greeting["graph_forms"] = ["runtime"] + [f for f in graph_forms if f != "runtime"]
    if output_region:
        greeting["output_region"] = True
    if input_region:
        greeting["input_region"] = True
    return greeting


def protect_stdout():
    """Keeps stdout for protocol lines alone: the lines go to a private duplicate of fd 1, and
    fd 1 itself is pointed at stderr, so that whatever a library's native code writes to the
    process's stdout cannot reach the validator. Call it before importing the library."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = protocol


def send(message):
    print(json.dumps(message), flush=True)


def serve(respond, greeting):
    """Sends `greeting`, then `respond(request)` for each request line; respond returns the
    response object (None: it has answered by itself)."""
    sys.stdin.reconfigure(encoding="utf-8", errors="surrogateescape")
    send(greeting)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError as e:
            send({"id": -1, "status": "error", "message": f"request is not JSON: {e}"})
            continue
        response = respond(request)
        if response is not None:
            send(response)
