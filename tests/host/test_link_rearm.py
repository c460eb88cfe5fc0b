"""The tower the host re-arms a rebooted board with (host/sticktable/rearm.py)."""

from sticktable.rearm import TowerSticks, tower_count


def test_masses_follow_the_rules_count():
    tower = TowerSticks(tower_count({"tower": 0}))
    tower.update({"k": "placed", "g": 81}, [{"type": "placed"}], 1)
    tower.update({"k": "placed", "g": 79}, [{"type": "placed"}], 2)
    tower.update({}, [{"type": "placed"}], 3)  # typed by the referee: no mass
    assert tower.arm_fields() == {"sticks": [81, 79, None]}
    tower.update({"k": "fell", "n": 2, "g": 160}, [{"type": "fell", "count": 2}], 1)
    assert tower.masses == [81]
    tower.update({"k": "topple"}, [{"type": "topple"}], 0)
    assert tower.arm_fields() is None
    resumed = TowerSticks(tower_count({"tower": 2}))  # a restarted daemon knows only the count
    assert resumed.arm_fields() == {"sticks": [None, None]}
    assert tower_count({"hands": 3}) is None
