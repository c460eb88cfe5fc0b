# Board entry point (RP2040): runs the table application at power-up.
# Hold seat 1's button while powering up to get the REPL instead (e.g. to update the firmware).

from machine import Pin

from tablefw import pins


def main():
    if not Pin(pins.BUTTONS[0], Pin.IN, Pin.PULL_UP).value():
        print("tablefw: seat 1 button held, app not started")
        return
    import micropython

    from tablefw import app
    from tablefw.board_rp2 import RP2Board

    micropython.kbd_intr(-1)  # protocol bytes on USB are data, never Ctrl-C
    app.main(RP2Board())


main()
