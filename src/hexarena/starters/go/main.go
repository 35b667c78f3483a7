// An HTTTX bot server speaking basic_websocket v1-alpha (bws): the game server connects to us.
//
//	GET /capabilities.json        what the bot speaks (bws v1-alpha: `config` tells it the match's rules)
//	WebSocket /bws/v1-alpha/game  one connection = one game (also /bws/v1-alpha/game/game and /, where other
//	                              game servers connect)
//
// Packets in: setup {board}, config {depth?, x-*}, move_request {side, previous[], board?, request_id?},
// heartbeat {waiting}, end, nope. Out: move_response {move: {pieces: [{q, r}, {q, r}]}}.
// The move itself is chosen in strategy.go.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"time"

	"github.com/gorilla/websocket"
)

const maxPacket = 1 << 20 // the largest packet a game server sends (a whole board near the stone cap)

// The server says heartbeat {waiting: true} until it has read our reply, and we read nothing while we compute: the
// heartbeats it sent meanwhile, and any crossing the reply on the wire, come after the reply, several when its
// heartbeats are short or the machine is loaded. Its first heartbeat after reading says waiting: false. So with
// no request open, waiting: true is one of those within this window after our reply (unless a waiting: false came
// since); past it the server has lost track of the requests, and the spec says to close. Long enough for a loaded
// server to read the reply; one that lost track says waiting: true at every heartbeat, so it is caught soon after.
const crossingWindow = 5 * time.Second

var socketPaths = map[string]bool{"/bws/v1-alpha/game": true, "/bws/v1-alpha/game/game": true, "/": true}

var capabilities = map[string]any{
	"meta": map[string]any{
		"name":        "go-starter",
		"description": "Wins when it can, blocks when it must, else builds its longest line.",
		"authors":     []string{"hexarena starters"},
		"version":     "0.1.0",
		"tags":        []string{"starter", "heuristic"},
	},
	// Everything declared is what playGame does: it takes any board from `setup` at any time, and plays the side
	// each request names after applying its moves in whatever order they come.
	"basic_websocket": map[string]any{"versions": map[string]any{"v1-alpha": map[string]any{
		"config":           map[string]any{"dynamic": true},
		"free_setup":       true,
		"resettable_state": true,
		"dual_sided":       true,
		"free_move_order":  true,
	}}},
}

type wireCell struct {
	Q int    `json:"q"`
	R int    `json:"r"`
	P string `json:"p,omitempty"`
}

type wireMove struct {
	Side   string     `json:"side"`
	Pieces []wireCell `json:"pieces"`
}

// packet holds the fields of every packet we read; json.RawMessage keeps config's x-* extras for later.
type packet struct {
	Type      string                      `json:"type"`
	Board     *struct{ Cells []wireCell } `json:"board"`
	Side      string                      `json:"side"`
	Previous  []wireMove                  `json:"previous"`
	Waiting   bool                        `json:"waiting"`
	RequestID *int                        `json:"request_id"`
}

func boardFrom(cells []wireCell) Board {
	board := Board{}
	for _, c := range cells {
		board[Cell{c.Q, c.R}] = c.P
	}
	return board
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// playGame runs one game on one connection until the server ends it (or breaks the protocol).
func playGame(ws *websocket.Conn) {
	defer ws.Close()
	ws.SetReadLimit(maxPacket)
	board := Board{{0, 0}: "x"} // the standard start until `setup` says otherwise
	rules := Rules{ViewDistance: 8, WinDistance: 6}
	var repliedAt time.Time // when we sent our last reply (zero: none since the server showed it read one)
	closeWith := func(code int, reason string) {
		msg := websocket.FormatCloseMessage(code, reason)
		_ = ws.WriteMessage(websocket.CloseMessage, msg)
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return // the server closed the connection
		}
		var p packet
		if err := json.Unmarshal(data, &p); err != nil || p.Type == "" {
			closeWith(websocket.ClosePolicyViolation, "packet is not JSON with a string 'type'")
			return
		}
		switch p.Type {
		case "setup":
			if p.Board != nil {
				board = boardFrom(p.Board.Cells)
			}
		case "config":
			var extras map[string]any
			_ = json.Unmarshal(data, &extras)
			for name, field := range map[string]*int{"x-view_distance": &rules.ViewDistance, "x-win_distance": &rules.WinDistance} {
				if v, ok := extras[name].(float64); ok && v > 0 && v == float64(int(v)) {
					*field = int(v)
				}
			}
		case "move_request":
			for _, m := range p.Previous {
				for _, c := range m.Pieces {
					board[Cell{c.Q, c.R}] = m.Side
				}
			}
			if p.Board != nil { // the full board, when sent, is the truth
				board = boardFrom(p.Board.Cells)
			}
			pieces := ChooseMove(board, p.Side, rules)
			reply := map[string]any{"type": "move_response", "move": map[string]any{"pieces": []wireCell{
				{Q: pieces[0].Q, R: pieces[0].R}, {Q: pieces[1].Q, R: pieces[1].R},
			}}}
			if p.RequestID != nil {
				reply["request_id"] = *p.RequestID
			}
			for _, c := range pieces { // our answer is played as sent
				board[c] = p.Side
			}
			repliedAt = time.Now() // before the send, so never later than the server got the reply
			if err := ws.WriteJSON(reply); err != nil {
				return
			}
		case "heartbeat":
			// We answer each request before we read on, so no request is open here (see crossingWindow).
			if !p.Waiting {
				repliedAt = time.Time{} // the server has read our reply
			} else if repliedAt.IsZero() || time.Since(repliedAt) > crossingWindow {
				closeWith(websocket.ClosePolicyViolation, "heartbeat waiting=true but no request is open")
				return
			}
		case "end", "nope":
			closeWith(websocket.CloseNormalClosure, p.Type)
			return
		}
		// unknown packets are ignored, as the spec asks
	}
}

func handle(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/capabilities.json" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(capabilities)
	case socketPaths[r.URL.Path] && websocket.IsWebSocketUpgrade(r):
		ws, err := upgrader.Upgrade(w, r, nil)
		if err == nil {
			go playGame(ws)
		}
	default:
		http.Error(w, `{"error": "not found"}`, http.StatusNotFound)
	}
}

func main() {
	port := "8002"
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	host := os.Getenv("HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	addr := fmt.Sprintf("%s:%s", host, port)
	log.Printf("go-starter: serving on http://%s", addr)
	log.Fatal(http.ListenAndServe(addr, http.HandlerFunc(handle)))
}
