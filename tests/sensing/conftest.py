"""Shared fixtures of the sensing tests: labelled traces written once per session."""

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
