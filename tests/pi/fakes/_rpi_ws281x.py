# Fake `_rpi_ws281x`, the C driver under Blinka's Raspberry Pi NeoPixel support (rpi_ws281x's
# SWIG module): channel settings, `ws2811_led_set` of 0xWWRRGGBB words, and `ws2811_render`,
# which shifts each LED's bytes out in the order the strip type gives (its R, G and B shifts),
# scaled by the channel brightness as the C code does ((level * (brightness + 1)) >> 8).

import fakepi

WS2811_SUCCESS = 0
WS2811_STRIP_RGB = 0x00100800
WS2811_STRIP_GRB = 0x00081000
SK6812_STRIP_RGBW = 0x18100800


class _Channel:
    def __init__(self):
        self.count = 0
        self.gpionum = 0
        self.invert = 0
        self.brightness = 0
        self.strip_type = WS2811_STRIP_RGB
        self.leds = []


class _Strip:
    def __init__(self):
        self.channels = [_Channel(), _Channel()]
        self.freq = 0
        self.dmanum = 0
        self.ready = False


def new_ws2811_t():
    return _Strip()


def delete_ws2811_t(strip):
    strip.ready = False


def ws2811_channel_get(strip, channum):
    return strip.channels[channum]


def ws2811_channel_t_count_set(channel, count):
    channel.count = count


def ws2811_channel_t_gpionum_set(channel, gpio):
    channel.gpionum = gpio


def ws2811_channel_t_gpionum_get(channel):
    return channel.gpionum


def ws2811_channel_t_invert_set(channel, invert):
    channel.invert = invert


def ws2811_channel_t_brightness_set(channel, brightness):
    channel.brightness = brightness


def ws2811_channel_t_strip_type_set(channel, strip_type):
    channel.strip_type = strip_type


def ws2811_channel_t_strip_type_get(channel):
    return channel.strip_type


def ws2811_t_freq_set(strip, freq):
    strip.freq = freq


def ws2811_t_dmanum_set(strip, dmanum):
    strip.dmanum = dmanum


def ws2811_init(strip):
    if strip.freq != 800000:
        return -1
    for channel in strip.channels:
        channel.leds = [0] * channel.count
    strip.ready = True
    return WS2811_SUCCESS


def ws2811_get_return_t_str(code):
    return f"error {code}"


def ws2811_led_set(channel, index, colour):
    channel.leds[index] = colour


def ws2811_render(strip):
    if not strip.ready:
        return -1
    for channel in strip.channels:
        if not channel.count:
            continue
        shifts = ((channel.strip_type >> 16) & 0xFF, (channel.strip_type >> 8) & 0xFF)
        shifts += (channel.strip_type & 0xFF,)
        scale = (channel.brightness & 0xFF) + 1
        wire = bytearray()
        for colour in channel.leds:
            wire.extend(((colour >> s) & 0xFF) * scale >> 8 for s in shifts)
        fakepi.world().shift_out(channel.gpionum, wire)
    return WS2811_SUCCESS


def ws2811_fini(strip):
    strip.ready = False
