# Fake gpiod.line: the enumerations of libgpiod 2.x's Python bindings.
from enum import Enum


class Value(Enum):
    INACTIVE = 0
    ACTIVE = 1


class Direction(Enum):
    AS_IS = 1
    INPUT = 2
    OUTPUT = 3


class Bias(Enum):
    AS_IS = 1
    UNKNOWN = 2
    DISABLED = 3
    PULL_UP = 4
    PULL_DOWN = 5
