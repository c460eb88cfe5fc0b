# ESP32-DevKitC: the common firmware, the ESP32 board (GPIO HX711 reader), its pin map, main.py.
include("../../manifest.py")
package("tablefw", files=("board_esp32.py", "pins_esp32.py"), base_path="../..")
module("main.py", base_path="../..")
