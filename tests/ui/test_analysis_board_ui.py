"""The analysis board in chromium (issue 33: "an analysis board for every game"): opened from a finished game's
replay at the ply shown, the built-in best bot's evaluation, best line and considered moves on screen, a variation
played on the board, stepping back, and back to the main line; a pasted record; axe on every state shot.

The games are real matches between built-in bots on a real server; what the page must show is checked against
the rules engine (tic-tac-toe's exact value of the position) rather than against the page's own answers.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from browser_pages import wait_or_say
from test_browser_ui import create, wait_turn_or_end
from test_phone_ui import PHONE, fits_a_phone

from hexarena.bots.tictactoe import value
from hexarena.core.game import RecordFacts
from hexarena.core.registry import get_game
from hexarena.games.htttx import HTTTX

WORDS = {1: "wins", 0: "draws", -1: "loses"}


def finished_game(server: str, game: str, players: list[str], params: dict[str, Any] | None = None) -> dict[str, Any]:
    r = httpx.post(f"{server}/api/matches", json={"game": game, "params": params or {}, "players": players})
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        rec = httpx.get(f"{server}/games/{game_id}").json()
        if rec.get("status") == "finished":
            return dict(rec)
        time.sleep(0.1)
    raise AssertionError(f"game {game_id} did not finish")


def open_from_replay(page: Any, server: str, rec: dict[str, Any], ply: int) -> None:
    page.goto(f"{server}/ui/#/replay/{rec['game_id']}?ply={ply}")
    page.wait_for_function(f"() => document.getElementById('app').dataset.shown === '{ply}'")
    page.click("#analyse")
    page.wait_for_selector("#eval-panel")
    page.wait_for_function(f"() => document.getElementById('app').dataset.ply === '{ply}'")


def wait_for_bot(page: Any, bot: str) -> None:
    page.wait_for_function(f"() => document.getElementById('evaltext')?.textContent.startsWith('builtin:{bot}')")


def load_record(page: Any, record: str) -> None:
    """Paste ``record`` into the analysis page's record box and press Load, once the page has shown its first
    evaluation: a settled page, as a person clicks on (the answer must not move Load:
    ``test_the_load_button_stays_put_when_the_first_evaluation_comes``)."""
    wait_or_say(page, "() => Number(document.getElementById('app').dataset.answers ?? 0) >= 1")
    page.fill("#record", record)
    page.click("#load")


def shown_hex(move: str) -> str:
    """A Hex move as the board shows it: common notation (letter = column), where the server's UAIS one has the
    letter for the row ("c5" is shown "e3"; ``boards/hex.js`` ``showMove``)."""
    cell = re.fullmatch(r"([a-z])(\d+)", move)
    return f"{chr(96 + int(cell[2]))}{ord(cell[1]) - 96}" if cell else move


def text(where: Any, selector: str) -> str:
    """The text of ``selector`` in a page or an element (the element's own with an empty selector)."""
    found = where.text_content() if not selector else where.eval_on_selector(selector, "e => e.textContent")
    return str(found or "").strip()


def test_tic_tac_toe_from_a_replay_evaluation_line_variation_and_back(page: Any, server: str, shot: Any) -> None:
    rec = finished_game(server, "tictactoe", ["builtin:perfect", "builtin:perfect"])
    moves = [m["move"] for m in rec["moves"]]
    game = get_game("tictactoe")
    state = game.new()
    for m in moves[:4]:
        state = game.play(state, game.parse(m))
    open_from_replay(page, server, rec, 4)
    wait_for_bot(page, "perfect")
    # the exact value of the position shown, as the rules engine has it
    assert f"X {WORDS[value(state)]} with best play" in text(page, "#evaltext")  # X moves 5th
    best = text(page, "#bestmove strong")
    line = [text(li, "button") for li in page.query_selector_all("#pv li")]
    assert line and line[0] == best, (best, line)
    assert len(page.query_selector_all("#considered li")) == len(list(game.legal(state)))
    assert page.is_hidden("#mainline") and text(page, "#plylabel") == "move 4"
    shot(page, "analysis-tictactoe")

    # an occupied cell: the server's rules say why, nothing is played
    page.click(f'[data-cell="{moves[0]}"]')
    page.wait_for_function("() => /Illegal: .*occupied/.test(document.getElementById('msg').textContent)")
    assert page.input_value("#line") == " ".join(moves[:4])

    # a variation: a free cell other than the game's next move
    free = next(game.format(m) for m in game.legal(state) if game.format(m) != moves[4])
    page.click(f'[data-cell="{free}"]')
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 5 (variation)'")
    assert page.input_value("#line") == " ".join([*moves[:4], free])
    assert page.is_visible("#mainline")
    assert text(page, "#variations button[aria-current=true]") == f"5. {free}"
    wait_for_bot(page, "perfect")  # the variation's own position is analysed
    after = game.play(state, game.parse(free))
    if game.outcome(after) is None:
        assert f"O {WORDS[value(after)]} with best play" in text(page, "#evaltext")
    shot(page, "analysis-tictactoe-variation")

    # step back to the branching point, forward along the main line, and into the variation again
    page.click("#back")
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 4'")
    assert page.input_value("#line") == " ".join(moves[:4]) and page.is_hidden("#mainline")
    page.click("#forward")
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 5'")
    assert page.input_value("#line") == " ".join(moves[:5])
    page.click("#variations button")
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 5 (variation)'")
    page.click("#mainline")
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 4'")
    # the keyboard steps too
    page.focus("#first")
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.getElementById('app').dataset.ply === '{len(moves)}'")
    assert "The game is over" in text(page, "#msg")
    shot(page, "analysis-tictactoe-end")


def test_hex_from_a_replay_scores_with_a_line_and_a_considered_move_played(page: Any, server: str, shot: Any) -> None:
    rec = finished_game(server, "hex", ["builtin:random", "builtin:random"], {"size": 5})
    moves = [m["move"] for m in rec["moves"]]
    open_from_replay(page, server, rec, 2)
    page.select_option("#think", "0.5")
    wait_for_bot(page, "mcts")
    assert "win chance" in text(page, "#evaltext")  # the MCTS reports its win rate
    # the best line starts with the best move; how far past it the MCTS follows its replies depends on the
    # simulations a wall-clock budget buys (tests/bots/test_hex_mcts.py checks the line at fixed iterations)
    line = page.query_selector_all("#pv li")
    assert line and text(line[0], "button") == text(page, "#bestmove strong")
    assert "no best line" not in text(page, "#notes")
    considered = page.query_selector_all("#considered li button")
    assert considered
    # the first considered move that is not the game's own third move (that one is the main line, no variation),
    # compared as the page shows moves (as its move list shows the game's third one)
    assert text(page, "#movelist .mv[data-ply='3']").split()[-1] == shown_hex(moves[2])
    choice = next((b for b in considered if text(b, "").split(" ")[0] != shown_hex(moves[2])), None)
    assert choice is not None, [text(b, "") for b in considered]
    played = text(choice, "").split(" ")[0]
    shot(page, "analysis-hex")

    choice.click()  # a move the bot considered, played as a variation
    wait_or_say(page, "() => document.getElementById('plylabel').textContent === 'move 3 (variation)'")
    assert text(page, "#variations button[aria-current=true]") == f"3. {played}"
    assert page.input_value("#line").split(" ")[:2] == moves[:2]
    wait_for_bot(page, "mcts")
    shot(page, "analysis-hex-variation")
    page.click("#back")
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 2'")
    assert page.input_value("#line") == " ".join(moves[:2])


def test_a_pasted_record_opens_at_its_end_and_the_game_list_leads_to_each_board(page: Any, server: str) -> None:
    game = get_game("htttx")
    record = game.record_notation(game.validate_params({}), ["[1,0][0,1]", "[-1,0][0,-1]"], RecordFacts(["a", "b"]))
    page.goto(f"{server}/ui/#/analysis")
    page.click(f"text={game.title}")
    page.wait_for_selector("#record")
    load_record(page, "[1,0][0,1] [9,9][0,0]")  # a bad one first: the rules say which move and why
    wait_or_say(page, "() => /does not play: move 2/.test(document.getElementById('msg').textContent)")
    page.fill("#record", record)
    page.click("#load")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '2'")
    # no origin line for a pasted record (once it read "null": the DOM writes a missing child as text)
    loose = "() => [...document.getElementById('app').childNodes].filter(n => n.nodeType === 3).map(n => n.textContent)"
    assert "".join(page.evaluate(loose)).strip() == ""
    assert HTTTX.read_record_notation(page.input_value("#line"))[1] == ["[1,0][0,1]", "[-1,0][0,-1]"]
    wait_for_bot(page, "search")
    assert len(page.query_selector_all("#pv li")) > 1  # the alpha-beta search has a principal variation

    # a move by keyboard on the board: its first stone is checked by the server (a probe), then the turn is whole
    page.focus(".boardbox svg")
    page.keyboard.press("Enter")  # the cursor starts on the origin: X's stone is there
    page.wait_for_function("() => /Illegal: /.test(document.getElementById('msg').textContent)")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # (2, 0): the first stone
    page.wait_for_function("() => /First stone at \\(2, 0\\)/.test(document.getElementById('msg').textContent)")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # (2, 1): the turn, played at the end of the main line, which it extends
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 3'")
    assert HTTTX.read_record_notation(page.input_value("#line"))[1] == ["[1,0][0,1]", "[-1,0][0,-1]", "[2,0][2,1]"]
    assert page.is_hidden("#mainline")


def test_a_live_game_opens_the_analysis_at_the_position_looked_at(page: Any, server: str, shot: Any) -> None:
    create(page, server, "tictactoe", clock=("none", ""))
    assert wait_turn_or_end(page)
    page.click("[data-cell='b2']")
    assert wait_turn_or_end(page)  # b2 and the bot's reply on the board, my turn
    page.click("#movelist [data-ply='1']")  # looking back at the first move
    page.wait_for_function("() => document.querySelector('#app').dataset.browsing === '1'")
    page.click("#analyse")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '1'")
    assert page.input_value("#line") == "b2"
    wait_for_bot(page, "perfect")
    assert "O draws with best play" in text(page, "#evaltext")  # the centre opening is a draw
    shot(page, "analysis-from-live")


def test_hive_from_a_link_both_hands_play_and_the_line_is_a_game_string(page: Any, server: str, shot: Any) -> None:
    page.goto(f'{server}/ui/#/analysis/hive?line=["wS1","bS1 wS1-"]')
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '2'")
    wait_for_bot(page, "alphabeta")
    assert len(page.query_selector_all("#pv li")) > 1  # the alpha-beta search has a principal variation
    shot(page, "analysis-hive")
    page.click("[data-hand='wQ']")  # white to move: the person plays white's hand here...
    target = page.eval_on_selector_all("[data-target]", "ts => ts.map(t => t.dataset.target)")[0]
    page.click(f"[data-target='{target}']")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '3'")
    page.click("[data-hand='bQ']")  # ...and black's
    target = page.eval_on_selector_all("[data-target]", "ts => ts.map(t => t.dataset.target)")[0]
    page.click(f"[data-target='{target}']")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '4'")
    record = page.input_value("#line")
    assert record.startswith("Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ ")
    wait_for_bot(page, "alphabeta")
    shot(page, "analysis-hive-played")


def test_the_analysis_board_fits_a_phone_with_finger_sized_controls(page: Any, server: str, shot: Any) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f'{server}/ui/#/analysis/tictactoe?line=["b2","a1"]')
    wait_for_bot(page, "perfect")
    page.click("[data-cell='c3']")
    page.wait_for_function("() => document.getElementById('plylabel').textContent === 'move 3'")
    wait_for_bot(page, "perfect")
    problems = fits_a_phone(page, "analysis")
    shot(page, "phone-analysis")
    assert not problems, "\n".join(problems)


def test_the_load_button_stays_put_when_the_first_evaluation_comes(page: Any, server: str) -> None:
    """The evaluation panel keeps its height as answers come (a box of its own for the evaluation, the best line
    and the considered moves), so Set up's Load button, under it, does not move under a pointer, on a desktop or on
    a phone: a click that lands as the page moves lands on nothing."""
    load_y = "e => e.getBoundingClientRect().top + scrollY"
    page.goto(f"{server}/ui/#/analysis/hex")
    page.wait_for_selector("#auto")
    if page.is_checked("#auto"):
        page.uncheck("#auto")  # no answer until Analyse is pressed: the page as drawn, then with its answer
    for viewport in ({"width": 1200, "height": 900}, PHONE):
        page.set_viewport_size(viewport)
        for game in ("hex", "htttx"):
            page.goto(f"{server}/ui/#/analysis/{game}?line=[]")
            page.reload()  # a document of its own: its count of answers starts again
            wait_or_say(page, "() => /Press Analyse/.test(document.getElementById('evaltext')?.textContent)")
            before = page.eval_on_selector("#load", load_y)
            page.click("#analyse")
            wait_or_say(page, "() => Number(document.getElementById('app').dataset.answers ?? 0) >= 1")
            wait_or_say(page, "() => document.getElementById('bestmove').textContent.startsWith('Best move')")
            after = page.eval_on_selector("#load", load_y)
            assert after == before, (game, viewport, before, after)


def test_dots_and_numberwang_boards_analyse_say_what_their_bots_lack_and_play_variations(
    page: Any, server: str, shot: Any
) -> None:
    """The two games whose best bots are greedy or random: the panel shows the bot's move and says, in words, that
    it reports no evaluation, line or considered moves; a move played on each game's own board is a variation."""
    page.goto(f'{server}/ui/#/analysis/hexdots?params={{"rows":3,"cols":3}}')
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '0'")
    wait_for_bot(page, "greedy")
    notes = text(page, "#notes")
    assert all(f"reports no {what}" in notes for what in ("evaluation", "best line", "considered moves")), notes
    assert len(page.query_selector_all("#pv li")) == 1
    page.click("[data-dot='0,0']")
    page.click("[data-dot='0,1']")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '1'")
    assert page.input_value("#line") == get_game("hexdots").format(get_game("hexdots").parse("0,0-0,1"))
    wait_for_bot(page, "greedy")
    shot(page, "analysis-hexdots")

    page.goto(f"{server}/ui/#/analysis/numberwang")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '0'")
    wait_for_bot(page, "random")
    assert "reports no best line" in text(page, "#notes")
    page.fill("input[type=number]", "7")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('app').dataset.ply === '1'")
    assert page.input_value("#line") == "7"
    wait_for_bot(page, "random")
    shot(page, "analysis-numberwang")
