# The simulated table on MicroPython's unix port (host/sticktable/sim/runner.py runs it from
# source): the common firmware, the simulated board, its entry point, and the Pico's pin map.
include("../../manifest.py")
package("tablefw", files=("board_sim.py", "pins.py", "unix_main.py"), base_path="../..")
