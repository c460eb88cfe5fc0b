"""Opening the board's serial port: exclusively, non-blocking, with one-line errors."""

from __future__ import annotations

import errno
import os

import serial
from serial.tools import list_ports

from sticktable.errors import UserError

# Raspberry Pi Pico (RP2040, MicroPython's USB CDC).
BOARD_USB_IDS = {(0x2E8A, 0x0005)}
BAUD = 115200  # ignored by USB CDC and ptys, needed by UART bridges


def open_port(port: str) -> serial.Serial:
    """The port opened exclusively (timeout 0: reads return what is there); UserError if not."""
    try:
        return serial.Serial(port, BAUD, timeout=0, write_timeout=1.0, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as err:
        raise UserError(f"cannot open {port}: {explain(err, port)}") from None


def explain(err: BaseException, port: str) -> str:
    """Why a port could not be used, in a few words."""
    code = getattr(err, "errno", None)
    text = str(err)
    if code == errno.ENOENT or "No such file" in text or not os.path.exists(port):
        return "no such port (is the board plugged in?)"
    if code in (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK) or "exclusively lock" in text:
        return "the port is busy (another program has it open)"
    if code == errno.EACCES or "Permission denied" in text:
        return "permission denied (add yourself to the dialout group)"
    return text.splitlines()[0] if text else type(err).__name__


def find_board(serial_number: str | None = None) -> str:
    """The device path of the table's board, found by USB vendor/product id (and serial)."""
    found = [
        p
        for p in list_ports.comports()
        if (p.vid, p.pid) in BOARD_USB_IDS
        and (serial_number is None or p.serial_number == serial_number)
    ]
    if not found:
        which = f" with serial number {serial_number}" if serial_number else ""
        raise UserError(f"no board{which} found on USB; give --port")
    if len(found) > 1:
        names = ", ".join(sorted(p.device for p in found))
        raise UserError(f"several boards found ({names}); choose one with --port")
    return found[0].device
