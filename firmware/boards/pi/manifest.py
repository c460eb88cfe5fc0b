# Raspberry Pi (the `pi` profile: the firmware under CPython with Blinka, nothing compiled):
# the common firmware and the Pi's pin map (plain numbers).
include("../../manifest.py")
package("tablefw", files=("pins_pi.py",), base_path="../..")
