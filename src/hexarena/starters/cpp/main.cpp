// An HTTTX bot server speaking basic_websocket v1-alpha (bws): the game server connects to us.
//
//   GET /capabilities.json        what the bot speaks (bws v1-alpha: `config` tells it the match's rules)
//   WebSocket /bws/v1-alpha/game  one connection = one game (also /bws/v1-alpha/game/game and /, where other
//                                 game servers connect)
//
// Packets in: setup {board}, config {depth?, x-*}, move_request {side, previous[], board?, request_id?},
// heartbeat {waiting}, end, nope. Out: move_response {move: {pieces: [{q, r}, {q, r}]}}.
// The move itself is chosen in strategy.cpp. One thread serves every connection: each answer is instant.
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>
#include <websocketpp/config/asio_no_tls.hpp>
#include <websocketpp/server.hpp>

#include "strategy.hpp"

using json = nlohmann::json;
using Server = websocketpp::server<websocketpp::config::asio>;
using Hdl = websocketpp::connection_hdl;
namespace close_code = websocketpp::close::status;

namespace {

const size_t MAX_PACKET = 1 << 20;  // the largest packet a game server sends (a whole board near the stone cap)
const std::set<std::string> SOCKET_PATHS = {"/bws/v1-alpha/game", "/bws/v1-alpha/game/game", "/"};
using Clock = std::chrono::steady_clock;
// The server says heartbeat {waiting: true} until it has read our reply, and we read nothing while we compute: the
// heartbeats it sent meanwhile, and any crossing the reply on the wire, come after the reply, several when its
// heartbeats are short or the machine is loaded. Its first heartbeat after reading says waiting: false. So with
// no request open, waiting: true is one of those within this window after our reply (unless a waiting: false came
// since); past it the server has lost track of the requests, and the spec says to close. Long enough for a loaded
// server to read the reply; one that lost track says waiting: true at every heartbeat, so it is caught soon after.
const Clock::duration CROSSING_WINDOW = std::chrono::seconds(5);

const json CAPABILITIES = {
    {"meta",
     {{"name", "cpp-starter"},
      {"description", "Wins when it can, blocks when it must, else builds its longest line."},
      {"authors", {"hexarena starters"}},
      {"version", "0.1.0"},
      {"tags", {"starter", "heuristic"}}}},
    // Everything declared is what handle() does: it takes any board from `setup` at any time, and plays the side
    // each request names after applying its moves in whatever order they come.
    {"basic_websocket",
     {{"versions",
       {{"v1-alpha",
         {{"config", {{"dynamic", true}}},
          {"free_setup", true},
          {"resettable_state", true},
          {"dual_sided", true},
          {"free_move_order", true}}}}}}},
};

// What one connection (one game) remembers.
struct Game {
    Board board{{{0, 0}, 'x'}};  // the standard start until `setup` says otherwise
    Rules rules;
    std::optional<Clock::time_point> replied_at;  // our last reply, until the server shows it has read it
};

std::string path_of(const std::string& resource) { return resource.substr(0, resource.find('?')); }

Board board_from(const json& cells) {
    Board board;
    for (const json& c : cells) board[{c.at("q").get<int>(), c.at("r").get<int>()}] = c.at("p").get<std::string>().at(0);
    return board;
}

// Handles one packet; returns the reply to send ("" for none), or throws to close the connection.
struct Close {
    close_code::value code;
    std::string reason;
};

std::string handle(Game& game, const json& packet) {
    const std::string type = packet.at("type").get<std::string>();
    if (type == "setup") {
        if (packet.contains("board") && !packet["board"].is_null())
            game.board = board_from(packet["board"].at("cells"));
    } else if (type == "config") {
        for (auto [name, field] : {std::pair{"x-view_distance", &game.rules.view_distance},
                                   std::pair{"x-win_distance", &game.rules.win_distance}}) {
            if (packet.contains(name) && packet[name].is_number_integer() && packet[name].get<int>() > 0)
                *field = packet[name].get<int>();
        }
    } else if (type == "move_request") {
        for (const json& move : packet.at("previous")) {
            char side = move.at("side").get<std::string>().at(0);
            for (const json& p : move.at("pieces")) game.board[{p.at("q").get<int>(), p.at("r").get<int>()}] = side;
        }
        if (packet.contains("board") && !packet["board"].is_null())  // the full board, when sent, is the truth
            game.board = board_from(packet["board"].at("cells"));
        char me = packet.at("side").get<std::string>().at(0);
        auto pieces = choose_move(game.board, me, game.rules);
        json reply = {{"type", "move_response"}, {"move", {{"pieces", json::array()}}}};
        for (const Cell& c : pieces) {
            reply["move"]["pieces"].push_back({{"q", c.first}, {"r", c.second}});
            game.board[c] = me;  // our answer is played as sent
        }
        if (packet.contains("request_id") && packet["request_id"].is_number_integer())
            reply["request_id"] = packet["request_id"];
        game.replied_at = Clock::now();  // before the send, so never later than the server got the reply
        return reply.dump();
    } else if (type == "heartbeat") {
        // We answer each request before we read on, so no request is open here (see CROSSING_WINDOW).
        if (!packet.value("waiting", false))
            game.replied_at.reset();  // the server has read our reply
        else if (!game.replied_at || Clock::now() - *game.replied_at > CROSSING_WINDOW)
            throw Close{close_code::policy_violation, "heartbeat waiting=true but no request is open"};
    } else if (type == "end" || type == "nope") {
        throw Close{close_code::normal, type};
    }  // unknown packets are ignored, as the spec asks
    return "";
}

}  // namespace

int main(int argc, char** argv) {
    std::string port = argc > 1 ? argv[1] : "8002";
    const char* host_env = std::getenv("HOST");
    std::string host = host_env ? host_env : "127.0.0.1";

    Server server;
    std::map<Hdl, Game, std::owner_less<Hdl>> games;
    server.clear_access_channels(websocketpp::log::alevel::all);
    server.set_error_channels(websocketpp::log::elevel::rerror | websocketpp::log::elevel::fatal);
    server.set_max_message_size(MAX_PACKET);
    server.init_asio();
    server.set_reuse_addr(true);

    server.set_http_handler([&](Hdl hdl) {
        auto con = server.get_con_from_hdl(hdl);
        con->append_header("Content-Type", "application/json");
        if (con->get_request().get_method() == "GET" && path_of(con->get_resource()) == "/capabilities.json") {
            con->set_status(websocketpp::http::status_code::ok);
            con->set_body(CAPABILITIES.dump());
        } else {
            con->set_status(websocketpp::http::status_code::not_found);
            con->set_body(R"({"error": "not found"})");
        }
    });
    server.set_validate_handler(
        [&](Hdl hdl) { return SOCKET_PATHS.count(path_of(server.get_con_from_hdl(hdl)->get_resource())) > 0; });
    server.set_open_handler([&](Hdl hdl) { games[hdl] = Game{}; });
    server.set_close_handler([&](Hdl hdl) { games.erase(hdl); });
    server.set_fail_handler([&](Hdl hdl) { games.erase(hdl); });
    server.set_message_handler([&](Hdl hdl, Server::message_ptr msg) {
        websocketpp::lib::error_code ec;
        try {
            std::string reply = handle(games[hdl], json::parse(msg->get_payload()));
            if (!reply.empty()) server.send(hdl, reply, websocketpp::frame::opcode::text, ec);
        } catch (const Close& c) {
            server.close(hdl, c.code, c.reason, ec);
        } catch (const std::exception& e) {  // not JSON, or a packet of the wrong shape
            server.close(hdl, close_code::policy_violation, (std::string("bad packet: ") + e.what()).substr(0, 120), ec);
        }
    });

    server.listen(host, port);
    server.start_accept();
    std::cerr << "cpp-starter: serving on http://" << host << ":" << port << std::endl;
    server.run();
}
