# The firmware every table board runs: the application and its portable modules
# (micropython-lib manifest style; each board's boards/NAME/manifest.py includes this one and
# adds its own driver; `make firmware` builds from it: hardware/mpy_build.py).
metadata(description="Firmware of the electronic stick-game table", version="0.1.0")
package(
    "tablefw",
    files=(
        "__init__.py",
        "accel.py",
        "app.py",
        "board_base.py",
        "buttons.py",
        "calib.py",
        "calibrator.py",
        "clock.py",
        "compat.py",
        "count.py",
        "detect.py",
        "hx711.py",
        "intqueue.py",
        "lean.py",
        "keep.py",
        "link.py",
        "median.py",
        "onset.py",
        "pressfall.py",
        "proto.py",
        "reading.py",
        "ringfit.py",
        "rings.py",
        "schema.py",
        "settle.py",
        "tilt.py",
    ),
)
