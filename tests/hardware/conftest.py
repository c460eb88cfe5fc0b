"""Hardware tests import the `hardware` package from the repository root."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def table_circuit(tmp_path_factory):
    """The table's circuit, built once (skidl's scratch files go to a temporary directory)."""
    from hardware import circuit

    return circuit.build(tmp_path_factory.mktemp("skidl"))
