# Raspberry Pi (the `pi` profile: the firmware under CPython with Blinka, nothing compiled):
# the common firmware, the Pi's pin map (plain numbers) and its board (Blinka).
include("../../manifest.py")
package("tablefw", files=("pins_pi.py", "board_blinka.py"), base_path="../..")
