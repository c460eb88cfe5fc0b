"""The table service: outputs are fed through bounded outboxes, so a stuck output never holds
up sensing, journaling or the board's acks; typed input goes through the same table."""

import threading
import time

from pty_board import PtyBoard

from sticktable.engine import Game
from sticktable.journal import Journal
from sticktable.link import BoardLink
from sticktable.table import GameOver, Line, Outbox, Table

HEADER = {"game": "stick-stack", "players": ["Ann", "Bo"]}


def wait_for(condition, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {timeout:g} s"
        time.sleep(0.01)


def test_an_outbox_drops_its_oldest_updates_never_blocks():
    outbox = Outbox(size=3)
    for n in range(5):
        outbox.put(Line(str(n)))
    outbox.close()
    assert outbox.dropped == 2
    assert [outbox.get(), outbox.get(), outbox.get(), outbox.get()] == [
        Line("2"),
        Line("3"),
        Line("4"),
        None,
    ]


def test_a_stuck_output_never_holds_up_the_table(tmp_path):
    board = PtyBoard("b0000001")
    acks: list[int] = []
    board.on_ack = acks.append
    release = threading.Event()
    got = []

    def stuck(update):  # an output that hangs (a frozen browser, a full pipe)
        release.wait()
        got.append(update)

    with Journal(tmp_path / "journal.sqlite") as journal:
        link = BoardLink.open(board.path, hello_timeout=10)
        try:
            game_id = journal.new_game(HEADER, "board")
            game = Game(HEADER)
            table = Table(journal, game_id, game, link)
            outbox = table.subscribe(stuck, size=2)
            fast = []
            table.subscribe(fast.append)
            seen = {}

            def drive():  # the board and a player, while the table runs in this thread
                try:
                    for _ in range(5):  # Ann and Bo take (seat buttons) and place (sensors)
                        board.event("button", seat=0, long=False, t=board.ms())
                        board.event("placed", t=board.ms(), g=80)
                        board.event("button", seat=1, long=False, t=board.ms())
                        seq = board.event("placed", t=board.ms(), g=80)
                    table.submit("touch")  # typed, through the same table
                    wait_for(lambda: len(game.events) == 21, "21 events applied")
                    wait_for(lambda: acks and max(acks) == seq, "the last event acknowledged")
                    seen.update(got=len(got), dropped=outbox.dropped)
                finally:
                    table.stop()
                    release.set()

            driver = threading.Thread(target=drive)
            driver.start()
            table.run()
            driver.join()
            assert seen == {"got": 0, "dropped": seen["dropped"]} and seen["dropped"] > 0
        finally:
            link.close()
            board.close()
        assert len(journal.events(game_id)) == 21
    assert isinstance(got[-1], GameOver) and isinstance(fast[-1], GameOver)
    assert any(isinstance(u, Line) and "key touch" in u.text for u in fast)
    assert len(fast) > len(got)
