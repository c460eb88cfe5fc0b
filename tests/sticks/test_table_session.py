"""A referee-mode Sticks game driven through the daemon: keys, seat buttons, journal, rings."""

import json

from sticktable.daemon import TableSession
from sticktable.engine import Game
from sticktable.journal import Journal

HEADER = {"game": "sticks", "players": ["Ann", "Bo", "Cy"], "preset": "classic", "mode": "referee"}


def test_referee_game_at_the_table(tmp_path):
    sent, said = [], []
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id = journal.new_game(HEADER, source="board")
        session = TableSession(
            journal,
            game_id,
            Game(HEADER),
            send=lambda kind, **f: sent.append((kind, f)),
            say=said.append,
        )
        session.on_board({"k": "hello", "s": 0, "boot": "0000abcd"})
        session.on_key("seats order=Ann,Bo,Cy")
        session.on_key("stick player=Bo stick=5")
        session.on_key("stick player=Cy stick=9")
        session.on_key("stick player=Ann stick=21")
        session.on_key("deal")
        session.on_board({"k": "button", "s": 1, "t": 10, "seat": 1, "long": False})  # Bo done
        session.on_board({"k": "fell", "s": 2, "t": 20, "n": 1})  # means nothing here
        session.on_key("laydown player=Cy cards=9C,10C,JC,QS,KS,AS,3H,4H,6H")  # refused
        session.on_key("laydown player=Cy cards=9C,10C,JC,QS,KS,AS,3H,JK,5H")
        session.on_key(json.dumps({"type": "layoff", "player": "Cy", "meld": 0, "cards": ["8C"]}))
        session.on_key("out player=Cy")
        game = session.game
        assert game.state["completed"]["Cy"] == [9] and game.state["deal_end"] == "went out"
        assert any("refused: not stick 9" in line for line in said)
        assert [e["type"] for e in journal.events(game_id)] == [e["type"] for e in game.events]
        assert Game(HEADER, journal.events(game_id)).state == game.state
    shows = [fields for kind, fields in sent if kind == "show"]
    assert shows[-1]["sc"] == [0, 0, 1] and shows[-1]["scale"] == 7
    assert any(show["turn"] == 2 and show["mode"] == "play" for show in shows)
