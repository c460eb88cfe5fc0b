"""Property-based fuzzing of the frame decoder (and of both link ends fed junk): it never raises,
never holds more than one frame's worth of unfinished input, and chunking changes nothing."""

from hypothesis import given, settings
from hypothesis import strategies as st

from sticktable.link import HostSession
from sticktable.link.codec import MAX_FRAME, Decoder, encode
from tablefw.link import Link

payloads = st.fixed_dictionaries(
    {
        "k": st.sampled_from(["fell", "placed", "hb", "ack", "err", "hello", "show", "ping"]),
        "s": st.integers(-(2**40), 2**40),
    },
    optional={
        "t": st.integers(0, 2**31),
        "id": st.integers(0, 2**31),
        "a": st.integers(-5, 50),
        "why": st.text(max_size=40),
        "sc": st.lists(st.integers(-99, 99), max_size=6),
        "boot": st.sampled_from(["1a2b3c4d", "deadbeef"]),
        "proto": st.sampled_from([[1, 0], [1, 3], [2, 0]]),
    },
)
frames = payloads.map(encode)
junk = st.binary(max_size=80) | st.sampled_from(
    [b"~", b"~{", b"*", b"\n", b"\r\n", b"x" * 600, b"~{" + b"y" * 520, b">>> ", b"\x00\xff"]
)


def chunks_of(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


def decode(parts: list[bytes]) -> tuple[list[dict], int, int]:
    d = Decoder()
    out = []
    for part in parts:
        out.extend(d.feed(part))
        assert len(d._buf) < MAX_FRAME  # bounded memory, whatever the input
    return out, d.frames, d.dropped


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=700), max_size=8))
def test_random_bytes_never_raise_and_stay_bounded(parts):
    out, frames, _ = decode(parts)
    assert frames == len(out)
    for msg in out:
        assert isinstance(msg["k"], str) and isinstance(msg["s"], int)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(junk, frames), min_size=1, max_size=8),
    st.lists(st.integers(0, 10_000), max_size=10),
)
def test_frames_survive_any_junk_between_lines(pairs, cuts):
    # Junk then a newline then a frame: every frame comes through, in order, however chunked.
    stream = b"".join(j + b"\n" + f for j, f in pairs)
    whole = decode([stream])
    assert [encode(m) for m in whole[0]] == [f for _, f in pairs]
    assert decode(chunks_of(stream, cuts)) == whole
    assert decode([bytes([b]) for b in stream]) == whole


@settings(max_examples=200, deadline=None)
@given(st.lists(junk | frames, max_size=12), st.lists(st.integers(0, 10_000), max_size=10))
def test_chunking_never_changes_the_result(parts, cuts):
    stream = b"".join(parts)
    assert decode(chunks_of(stream, cuts)) == decode([stream])


@settings(max_examples=150, deadline=None)
@given(st.lists(junk | frames, max_size=20))
def test_board_link_survives_anything_from_the_host(parts):
    sent = []
    link = Link(sent.append, lambda msg: None, {"boot": "1a2b3c4d", "fw": "0"}, size=4)
    link.tick(0)
    link.hello()
    for i, part in enumerate(parts):
        link.feed(part)
        link.tick(i * 100)
        link.event("fell", t=i, n=1)
    assert link.pending <= 4
    assert all(f.startswith(b"~{") and len(f) <= MAX_FRAME for f in sent)


@settings(max_examples=150, deadline=None)
@given(st.lists(junk | frames, max_size=20))
def test_host_session_survives_anything_from_the_board(parts):
    sent = []
    clock = iter(range(10**6))
    session = HostSession(sent.append, lambda: next(clock) * 0.1)
    seen = []
    for part in parts:
        try:
            out = session.feed(part)
        except Exception as err:  # only a protocol-major mismatch may stop the host
            assert type(err).__name__ == "ProtocolMismatch"
            return
        out += session.tick()
        seen += [m["s"] for m in out if "s" in m and m["k"] not in ("hello", "raw", "err")]
    # Events of one boot come out strictly increasing (no duplicate, no reordering).
    assert all(a < b for a, b in zip(seen, seen[1:], strict=False)) or session.counts["reboots"]
