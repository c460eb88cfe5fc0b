# Board entry point (RP2040 or ESP32, picked by sys.platform): runs the table application at
# power-up. Hold seat 1's button while powering up to get the REPL instead (e.g. to update the
# firmware).

import sys


def main():
    # The board module brings its own pin map: on an ESP32 the Pico's seat 1 pin is a flash pin.
    if sys.platform == "rp2":
        from tablefw.board_rp2 import RP2Board as Board
        from tablefw.board_rp2 import pin_map
    elif sys.platform == "esp32":
        from tablefw.board_esp32 import ESP32Board as Board
        from tablefw.board_esp32 import pin_map
    else:
        print("tablefw: no board driver for platform %s, app not started" % sys.platform)
        return
    from machine import Pin

    if not Pin(pin_map.BUTTONS[0], Pin.IN, Pin.PULL_UP).value():
        print("tablefw: seat 1 button held, app not started")
        return
    import micropython

    from tablefw import app

    micropython.kbd_intr(-1)  # protocol bytes on the link are data, never Ctrl-C
    app.main(Board())


main()
