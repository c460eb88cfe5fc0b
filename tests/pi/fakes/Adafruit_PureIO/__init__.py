# Fake Adafruit_PureIO: only `smbus`, the /dev/i2c-N access Blinka's Linux I2C sits on.
