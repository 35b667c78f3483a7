// An HTTTX bot server speaking basic_websocket v1-alpha (bws): the game server connects to us.
//
//   GET /capabilities.json      what the bot speaks (bws v1-alpha: `config` tells it the match's rules)
//   WebSocket /bws/v1-alpha/game one connection = one game (also /bws/v1-alpha/game/game and /, where other
//                                game servers connect)
//
// Packets in: setup {board}, config {depth?, x-*}, move_request {side, previous[], board?, request_id?},
// heartbeat {waiting}, end, nope. Out: move_response {move: {pieces: [{q, r}, {q, r}]}}.
// The move itself is chosen in strategy.js.

"use strict";

const http = require("http");
const { WebSocketServer } = require("ws");
const { chooseMove, key } = require("./strategy");

const MAX_PACKET = 1 << 20; // the largest packet a game server sends (a whole board near the stone cap)
const SOCKET_PATHS = new Set(["/bws/v1-alpha/game", "/bws/v1-alpha/game/game", "/"]);
// The server says heartbeat {waiting: true} until it has read our reply, and we read nothing while we compute: the
// heartbeats it sent meanwhile, and any crossing the reply on the wire, come after the reply, several when its
// heartbeats are short or the machine is loaded. Its first heartbeat after reading says waiting: false. So with
// no request open, waiting: true is one of those within this window after our reply (unless a waiting: false came
// since); past it the server has lost track of the requests, and the spec says to close. Long enough for a loaded
// server to read the reply; one that lost track says waiting: true at every heartbeat, so it is caught soon after.
const CROSSING_WINDOW_MS = 5000;

const CAPABILITIES = {
  meta: {
    name: "node-starter",
    description: "Wins when it can, blocks when it must, else builds its longest line.",
    authors: ["hexarena starters"],
    version: "0.1.0",
    tags: ["starter", "heuristic"],
  },
  // Everything declared is what playGame does: it takes any board from `setup` at any time, and plays the side
  // each request names after applying its moves in whatever order they come.
  basic_websocket: {
    versions: {
      "v1-alpha": {
        config: { dynamic: true },
        free_setup: true,
        resettable_state: true,
        dual_sided: true,
        free_move_order: true,
      },
    },
  },
};

function boardFrom(cells) {
  const board = new Map();
  for (const c of cells) board.set(key(c.q, c.r), c.p);
  return board;
}

// One game on one connection.
function playGame(ws) {
  let board = new Map([[key(0, 0), "x"]]); // the standard start until `setup` says otherwise
  const rules = { viewDistance: 8, winDistance: 6 };
  let repliedAt = null; // when we sent our last reply, until the server shows it has read it

  ws.on("message", (data) => {
    try {
      handle(data);
    } catch (err) {
      ws.close(1008, `bad packet: ${err.message}`.slice(0, 120));
    }
  });

  function handle(data) {
    let packet;
    try {
      packet = JSON.parse(data.toString());
    } catch (err) {
      ws.close(1008, "packet is not valid JSON");
      return;
    }
    if (packet === null || typeof packet !== "object" || typeof packet.type !== "string") {
      ws.close(1008, "packet without a string 'type'");
      return;
    }
    switch (packet.type) {
      case "setup":
        if (packet.board) board = boardFrom(packet.board.cells);
        break;
      case "config":
        for (const [name, field] of [["x-view_distance", "viewDistance"], ["x-win_distance", "winDistance"]]) {
          if (Number.isInteger(packet[name]) && packet[name] > 0) rules[field] = packet[name];
        }
        break;
      case "move_request": {
        for (const move of packet.previous) {
          for (const p of move.pieces) board.set(key(p.q, p.r), move.side);
        }
        if (packet.board) board = boardFrom(packet.board.cells); // the full board, when sent, is the truth
        const pieces = chooseMove(board, packet.side, rules);
        for (const [q, r] of pieces) board.set(key(q, r), packet.side); // our answer is played as sent
        const reply = { type: "move_response", move: { pieces: pieces.map(([q, r]) => ({ q, r })) } };
        if (Number.isInteger(packet.request_id)) reply.request_id = packet.request_id;
        repliedAt = performance.now(); // before the send, so never later than the server got the reply
        ws.send(JSON.stringify(reply));
        break;
      }
      case "heartbeat":
        // We answer each request before we read on, so no request is open here (see CROSSING_WINDOW_MS).
        if (!packet.waiting) repliedAt = null; // the server has read our reply
        else if (repliedAt === null || performance.now() - repliedAt > CROSSING_WINDOW_MS) {
          ws.close(1008, "heartbeat waiting=true but no request is open");
        }
        break;
      case "end":
      case "nope":
        ws.close(1000, packet.type);
        break;
      default: // unknown packets are ignored, as the spec asks
    }
  }
}

function main() {
  const port = Number(process.argv[2] || process.env.PORT || 8002);
  const host = process.env.HOST || "127.0.0.1";
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PACKET, perMessageDeflate: false });
  wss.on("connection", playGame);

  const server = http.createServer((req, res) => {
    if (req.method === "GET" && req.url.split("?")[0] === "/capabilities.json") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(CAPABILITIES));
    } else {
      res.writeHead(404, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "not found" }));
    }
  });
  server.on("upgrade", (req, socket, head) => {
    if (!SOCKET_PATHS.has(req.url.split("?")[0])) {
      socket.end("HTTP/1.1 404 Not Found\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });
  server.listen(port, host, () => console.log(`node-starter: serving on http://${host}:${port}`));
}

main();
