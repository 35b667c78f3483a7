"""A scripted Trylobot AI module over TCP or stdio with one fault: ``fake_module.py MODE [stdio]``.

Modes: ``good`` (random possible turn; replies with ``response_id`` like the 0.1.0 modules), ``garbage``
(non-JSON), ``badframe`` (broken length prefix), ``illegal`` (a turn not in possible_turns), ``silent``,
``crash``, ``wrongid`` (answers another request id), ``forfeit`` (Forfeit while moves exist), ``throws``
(the module throws on Choose Turn and json-socket answers ``{"success": false, "error": "<text>"}``).
"""

import json
import random
import socket
import sys
import time

mode = sys.argv[1]
stdio = len(sys.argv) > 2 and sys.argv[2] == "stdio"
THROWN = "TypeError: Cannot read property 'Soldier Ant' of undefined"


def choose(request: dict) -> dict:
    kind = request["request_type"]
    rid = request.get("request_id")
    if kind in ("Greetings", "GREETINGS"):
        return {"response_type": kind, "response_id": rid, "name": f"fake-{mode}", "version": "0.1.0"}
    if mode == "crash":
        sys.exit(5)
    if mode == "throws":
        return {"success": False, "error": THROWN}
    if mode == "silent":
        time.sleep(600)
    turns = (
        request["game_state"]["possible_turns"]
        if "possible_turns" in request["game_state"]
        else request["possible_turns"]
    )
    options = []
    for ptype in turns.get("Placement", {}).get("piece_types", []):
        for pos in turns["Placement"]["positions"]:
            options.append({"turn_type": "Placement", "piece_type": ptype, "destination": pos})
    for src, dsts in turns.get("Movement", {}).items():
        options += [{"turn_type": "Movement", "source": src, "destination": d} for d in dsts]
    turn = random.choice(options) if options else {"turn_type": "Forfeit"}
    if mode == "illegal":
        turn = {"turn_type": "Placement", "piece_type": "Queen Bee", "destination": "40,0"}
    if mode == "forfeit":
        turn = {"turn_type": "Forfeit"}
    out = {
        "response_type": kind,
        "response_id": "nope" if mode == "wrongid" else rid,
        "game_id": request["game_id"],
        **turn,
    }
    return out


def encode(obj: dict) -> str:
    if mode == "garbage":
        return "this is not json"
    return json.dumps(obj)


if stdio:
    for line in sys.stdin:
        if line.strip():
            print(encode(choose(json.loads(line))), flush=True)
    sys.exit(0)

server = socket.create_server(("127.0.0.1", 0))
print(server.getsockname()[1], flush=True)
while True:
    conn, _ = server.accept()
    data = b""
    while b"#" not in data:
        data += conn.recv(65536)
    head, _, rest = data.partition(b"#")
    while len(rest) < int(head):
        rest += conn.recv(65536)
    payload = encode(choose(json.loads(rest.decode())))
    if mode == "badframe":
        conn.sendall(b"12x#" + payload.encode())
    else:
        conn.sendall(f"{len(payload)}#{payload}".encode())
    conn.close()
