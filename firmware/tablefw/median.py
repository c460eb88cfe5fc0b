# The median of three readings: how both the HX711 driver and the detector drop a single wild
# value. Plain integer compares: no allocation, cheap enough for the sampling loop.


def median3(a, b, c):
    if a > b:
        a, b = b, a
    if b > c:
        b = c
    return a if a > b else b
