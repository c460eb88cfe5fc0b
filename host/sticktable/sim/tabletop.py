"""The table without the firmware process: samples -> the firmware's Detector and Buttons ->
the rules' `interpret` -> the game, arming the detector when the game asks (a new round).

A fast, faithful check that sensing plus rules score a simulated game as scripted (the end to
end test does the same through MicroPython, the pty and the journal)."""

from __future__ import annotations

from array import array
from collections.abc import Iterable

from sticktable.engine import ArmBoard, Game
from sticktable.sim.detection import make_detector
from sticktable.sim.tower import Sample
from tablefw import schema
from tablefw.buttons import Buttons
from tablefw.reading import MISSING


def play_through(header: dict, meta: dict, samples: Iterable[Sample], seats: int) -> Game:
    game = Game(header)
    det = make_detector(meta)
    buttons = Buttons(seats)
    n = int(meta["cells"])
    cells = array("i", [0] * n)
    out = array("i", [0, 0, 0, 0])
    press = array("i", [0, 0, 0])
    for s in samples:
        for i in range(n):
            v = s.cells[i]
            cells[i] = MISSING if v is None else v
        facts = []
        if det.feed(s.t_ms, cells, s.ax, s.ay, s.az):
            while det.pop(out):
                facts.append(schema.message(out[0], out[1], out[2], out[3]))
        if buttons.update(s.t_ms, s.buttons):
            while buttons.pop(press):
                facts.append(schema.message(schema.BUTTON, press[2], press[0], press[1]))
        for fact in facts:
            for event in game.rules.interpret(game.state, fact):
                if any(isinstance(e, ArmBoard) for e in game.step(event)):
                    det.arm()  # as the daemon has the board do at each new round
    return game
