# Fake libgpiod 2.x Python bindings (the part Blinka's Raspberry Pi pins use): one GPIO
# controller whose lines lead into fakepi's world. Requests, settings and values behave like the
# kernel's character-device API: a line must be requested before use; an input reads what is
# wired to it (or its bias); an output drives the wire.

from gpiod import line
from gpiod.line import Bias, Direction, Value

__version__ = "2.2.2"


class ChipInfo:
    def __init__(self, name, label, num_lines):
        self.name = name
        self.label = label
        self.num_lines = num_lines


class LineSettings:
    def __init__(self, direction=Direction.AS_IS, bias=Bias.AS_IS, output_value=Value.INACTIVE):
        self.direction = direction
        self.bias = bias
        self.output_value = output_value


class LineRequest:
    def __init__(self, world, offsets):
        self._world = world
        self._offsets = set(offsets)
        self._released = False

    def _check(self, offset):
        if self._released:
            raise ValueError("line request released")
        if offset not in self._offsets:
            raise ValueError(f"line {offset} is not part of this request")

    def reconfigure_lines(self, config):
        for offset, settings in config.items():
            self._check(offset)
            if settings.direction == Direction.OUTPUT:
                self._world.drive(offset, 1 if settings.output_value == Value.ACTIVE else 0)
            elif settings.direction == Direction.INPUT:
                self._world.levels.pop(offset, None)
                self._world.bias[offset] = {Bias.PULL_UP: "up", Bias.PULL_DOWN: "down"}.get(
                    settings.bias
                )

    def get_value(self, offset):
        self._check(offset)
        return Value.ACTIVE if self._world.read(offset) else Value.INACTIVE

    def set_value(self, offset, value):
        self._check(offset)
        if offset not in self._world.levels:
            raise OSError(1, "line is not an output")  # EPERM, as the kernel answers
        self._world.drive(offset, 1 if value == Value.ACTIVE else 0)

    def release(self):
        if not self._released:
            self._released = True
            for offset in self._offsets:
                self._world.levels.pop(offset, None)


class Chip:
    def __init__(self, path):
        import fakepi

        if path != "/dev/gpiochip0":
            raise FileNotFoundError(2, "No such file or directory", path)
        self.path = path
        self._world = fakepi.world()
        self._closed = False

    def get_info(self):
        import fakepi

        return ChipInfo("gpiochip0", fakepi.LABEL, fakepi.NUM_LINES)

    def request_lines(self, config, consumer=None, event_buffer_size=None):
        offsets = []
        for key in config:
            offsets.extend(key if isinstance(key, tuple) else (key,))
        return LineRequest(self._world, offsets)

    def close(self):
        self._closed = True


__all__ = ["Chip", "ChipInfo", "LineRequest", "LineSettings", "line"]
