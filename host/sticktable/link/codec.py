"""The frame codec and protocol version, imported from the firmware source so both sides run the
same code."""

from tablefw.link import PROTO
from tablefw.proto import MAX_FRAME, Decoder, encode

__all__ = ["MAX_FRAME", "PROTO", "Decoder", "encode"]
