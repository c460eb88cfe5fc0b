"""The host's end of the serial link to the board (protocol: firmware/PROTOCOL.md)."""

from .board import BoardLink
from .port import find_board, open_port
from .session import PROTO, HostSession, ProtocolMismatch

__all__ = ["PROTO", "BoardLink", "HostSession", "ProtocolMismatch", "find_board", "open_port"]
