"""`KEY=VALUE` words, as typed for house rules (`--house end_score=15`) and rule events."""


def parse_value(text: str) -> int | str:
    """Whole numbers become ints; everything else stays text."""
    return int(text) if text.lstrip("-").isdigit() else text


def parse_pairs(words: list[str]) -> dict:
    """`["end_score=15", "tie=play_on"]` -> {"end_score": 15, "tie": "play_on"}."""
    pairs = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError(f"expected KEY=VALUE, got {word!r}")
        pairs[key] = parse_value(value)
    return pairs
