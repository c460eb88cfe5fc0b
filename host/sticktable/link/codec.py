"""The frame codec and protocol version, imported from the firmware source so both sides run the
same code."""

from sticktable.paths import import_firmware

import_firmware()

from tablefw.link import PROTO  # noqa: E402
from tablefw.proto import MAX_FRAME, Decoder, encode  # noqa: E402

__all__ = ["MAX_FRAME", "PROTO", "Decoder", "encode"]
