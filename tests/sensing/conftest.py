"""Shared fixtures of the sensing tests: labelled traces written once per session, and the
bench's tools (tests/bench/*.py, not a package) loaded as modules."""

import importlib.util
from pathlib import Path

import pytest

from sticktable.sim.scenarios import scenario
from sticktable.sim.trace import write_trace


@pytest.fixture(scope="session")
def trace_file(tmp_path_factory):
    """Write a scenario's trace once; returns (path, Scenario)."""
    made = {}

    def make(name: str, seed: int = 1, **physics):
        key = (name, seed, tuple(sorted(physics.items())))
        if key not in made:
            sc = scenario(name, seed=seed, **physics)
            path = tmp_path_factory.mktemp("traces") / f"{name}-{seed}.csv"
            write_trace(path, sc.meta, sc.samples)
            made[key] = (path, sc)
        return made[key]

    return make


@pytest.fixture(scope="session")
def bench_tool():
    """Load tests/bench/NAME.py as a module: bench_tool("bench_detect")."""

    def load(name: str):
        path = Path(__file__).resolve().parents[1] / "bench" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
