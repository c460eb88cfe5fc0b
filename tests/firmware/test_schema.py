"""tablefw/schema.py, the one message schema: PROTOCOL.md's kind tables say the same, the
board's records become the same messages under CPython and MicroPython, and traces get the
long names."""

import json
import re
from pathlib import Path

from tablefw import schema

PROTOCOL = Path(__file__).resolve().parents[2] / "firmware" / "PROTOCOL.md"


def _tables() -> dict[str, dict[str, list[str]]]:
    """PROTOCOL.md section 5's two tables: direction -> kind -> its fields as written."""
    text = PROTOCOL.read_text().split("## 5. Kinds", 1)[1].split("### 5.1", 1)[0]
    tables: dict[str, dict[str, list[str]]] = {}
    direction = None
    for line in text.splitlines():
        if line.startswith("Board → host"):
            direction = "board"
        elif line.startswith("Host → board"):
            direction = "host"
        row = re.match(r"\| `(\w+)`( \(unsequenced\))? \| `([^`]*)` \|", line)
        if row and direction:
            fields = [f.strip("[]") for f in row.group(3).split()]
            kind = row.group(1) + (" unsequenced" if row.group(2) else "")
            tables.setdefault(direction, {})[kind] = fields
    return tables


def test_protocol_tables_match_the_schema():
    tables = _tables()
    board, host = tables["board"], tables["host"]
    unsequenced = {k.split()[0] for k in board if k.endswith("unsequenced")}
    assert unsequenced == set(schema.LINK_KINDS)
    events = {k: v for k, v in board.items() if not k.endswith("unsequenced")}
    assert events == {k: list(v) for k, v in schema.EVENTS.items()}
    commands = {k: [f for f in v if f != "id"] for k, v in host.items() if "id" in v}
    assert commands == {k: list(v) for k, v in schema.COMMANDS.items()}
    assert {k for k, v in host.items() if "id" not in v} == set(schema.HOST_LINK_KINDS)
    assert set(schema.HOST_ONLY) == {"show", "arm", "stream", "calq", "tare", "ping"}


RECORDS = [
    (schema.PLACED, 1200, 0, 81),
    (schema.FELL, 5230, 2, 143),
    (schema.TOPPLE, 7000, 0, 0),
    (schema.TOUCH, 7100, 0, 12),
    (schema.BUTTON, 800, 3, 1),
    (schema.FAULT, 900, 1, 0),
    (99, 1000, 0, 0),
]


def test_records_become_messages_with_the_schema_fields():
    for record in RECORDS[:-1]:
        msg = schema.message(*record)
        assert list(msg)[0] == "k"
        assert tuple(msg)[1:] == schema.EVENTS[msg["k"]], msg
    assert schema.message(*RECORDS[4]) == {"k": "button", "t": 800, "seat": 3, "long": True}
    assert schema.message(*RECORDS[5]) == {"k": "fault", "t": 900, "what": "accel", "ok": False}
    assert schema.message(*RECORDS[-1]) == {"k": "kind99", "t": 1000}


def test_trace_events_use_the_long_names():
    got = [schema.trace_event(schema.message(*r)) for r in RECORDS[:4]]
    assert got == [
        {"t_ms": 1200, "kind": "placed", "grams": 8.1},
        {"t_ms": 5230, "kind": "fell", "count": 2, "grams": 14.3},
        {"t_ms": 7000, "kind": "topple"},
        {"t_ms": 7100, "kind": "touch", "grams": 1.2},
    ]


def test_micropython_makes_the_same_messages(mp, tmp_path):
    script = tmp_path / "schema_mp.py"
    script.write_text(
        "import json\nfrom tablefw import schema\n"
        f"for r in {json.dumps(RECORDS)}:\n"
        "    m = schema.message(*r)\n"
        "    print(json.dumps([m, schema.trace_event(m)]))\n"
    )
    proc = mp(script)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    want = [[schema.message(*r), schema.trace_event(schema.message(*r))] for r in RECORDS]
    assert got == want
