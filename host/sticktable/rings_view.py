"""The score rings as text: what the firmware actually lit, decoded from its LED frame."""

from __future__ import annotations

from collections.abc import Callable

LEDS_PER_RING = 12
OFF = "·"


def led_char(g: int, r: int, b: int) -> str:
    """One LED as a character by its dominant colour (the frame is GRB, as NeoPixels take it)."""
    if max(g, r, b) < 3:
        return OFF
    if r > 2 * g and r > 2 * b:
        return "y" if g > r // 5 else "r"  # amber (a fault) has some green; red is a topple
    if g > 2 * r and g > 2 * b:
        return "g"  # green: a winner
    if r > 2 * b and g > 2 * b:
        return "y"  # amber/yellow: a fault, or a score
    if b > 2 * r and b > 2 * g:
        return "b"
    return "●"  # white-ish: the turn marker, a score


def decode(frame: bytes, rings: int) -> list[str]:
    """Each ring's LEDs as a string of characters."""
    out = []
    for ring in range(rings):
        leds = frame[ring * LEDS_PER_RING * 3 : (ring + 1) * LEDS_PER_RING * 3]
        out.append("".join(led_char(*leds[i : i + 3]) for i in range(0, len(leds) - 2, 3)))
    return out


class RingPrinter:
    """Prints the rings whenever the firmware shows something new, each under the name of who
    sits at it (the game's seat order, which a seat draw may change).

    A blinking display (a topple's flash, a fault) alternates between two frames: each is
    printed once, not at every blink."""

    def __init__(self, say: Callable[[str], None]):
        self.say = say
        self.recent: list[list[str]] = []  # the last two frames printed

    def update(self, frame: bytes | None, names: tuple[str, ...], force: bool = False) -> None:
        if not frame:
            return
        rings = decode(frame, len(names))
        if rings in self.recent and not force:
            return
        self.recent = [*self.recent[-1:], rings]
        self.say(
            "          rings "
            + "  ".join(f"{name}[{ring}]" for name, ring in zip(names, rings, strict=True))
        )
