"""The daemon runs a Bloodsticks game like a Stick Stack one: keys, buttons, journal, rings."""

import json

from sticktable.daemon import TableSession
from sticktable.engine import Game
from sticktable.journal import Journal

HEADER = {"game": "bloodsticks", "players": ["Ann", "Bo", "Cy"], "first_dropper": "host"}
FLAT = {sid: {"posture": "flat"} for p in ("Ann", "Bo", "Cy") for sid in (f"{p}-1", f"{p}-2")}


def test_a_game_at_the_table_is_journaled_and_replays(tmp_path):
    sent = []
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id = journal.new_game(HEADER, source="board")
        session = TableSession(
            journal,
            game_id,
            Game(HEADER),
            send=lambda kind, **f: sent.append((kind, f)),
            say=lambda text: None,
        )
        session.on_board({"k": "hello", "s": 0, "boot": "0000abcd"})
        session.on_key("first Ann")
        session.on_key("collect")
        session.on_key("bet 3")
        session.on_board({"k": "button", "s": 1, "t": 10, "seat": 1, "long": False})
        session.on_board({"k": "button", "s": 2, "t": 20, "seat": 2, "long": True})
        session.on_board({"k": "fell", "s": 3, "t": 30, "n": 1})  # means nothing in Bloodsticks
        session.on_key("drop flip")
        sticks = {k: v for k, v in FLAT.items() if not k.startswith("Cy")}
        session.on_key(json.dumps({"type": "layout", "sticks": sticks}))
        session.on_key("confirm")
        game = session.game
        assert game.state["fell_out"] == ["Cy"] and game.state["totals"]["Ann"] == 2
        assert [e["type"] for e in journal.events(game_id)] == [e["type"] for e in game.events]
        again = Game(HEADER, journal.events(game_id))
        assert again.state == game.state
    shows = [fields for kind, fields in sent if kind == "show"]
    assert shows[-1]["sc"] == [2, 2, 0] and shows[-1]["turn"] == 1 and shows[-1]["mk"][2]


def test_a_whole_game_typed_at_the_table(tmp_path):
    """What `sticktable bloodsticks play` did, now at the one table: refusals are said, the
    game goes on; the standings come out right."""
    lines = [
        "first Ann", "collect", "bet 2", "match Bo", "fall Cy", "drop low",
        'layout {"Ann-1": {"posture": "center"}, "Ann-2": {"posture": "flat"},'
        ' "Bo-1": {"posture": "thin"}, "Bo-2": {"posture": "flat"}}',
        "override Ann=9 Bo=4 the counter saw Bo-2 propped",
        "collect", "bet 1", "match Ann", "drop flip", "nonsense", "drop bounce",
        '{"type": "layout", "sticks": {"Ann-1": {"posture": "flat"}, "Ann-2": {"posture": '
        '"flat"}, "Bo-1": {"posture": "flat"}, "Bo-2": {"posture": "flat"}}}',
        "confirm",
    ]  # fmt: skip
    said: list[str] = []
    with Journal(tmp_path / "journal.sqlite") as journal:
        game_id = journal.new_game(HEADER, source="board")
        session = TableSession(journal, game_id, Game(HEADER), say=said.append)
        for line in lines:
            session.on_key(line)
        assert len(journal.events(game_id)) == len(session.game.events)
    refused = [line for line in said if "refused" in line or line.startswith("  key:")]
    assert len(refused) == 2  # `nonsense`, and a second drop before the first was counted
    standings = session.game.standings()
    # Round 1 (Ann drops): override 9 / 4. Round 2 (Bo drops): 2 / 2. Ann wins 2+2+1+1 = 6.
    assert standings.totals == {"Ann": 11, "Bo": 6, "Cy": 0}
    assert standings.winners == ["Ann"] and standings.payouts == {"Ann": 6}
