"""The tower as the rules know it, for re-arming a board that reset mid-round (PROTOCOL.md,
`arm` with `sticks`): how many sticks stand on the tower (the rules' count) and the mass the
board reported when each was placed (None where unknown: placed by a typed key, or before a
daemon restart), bottom first. A new boot's detector armed with them goes on where it was."""

from __future__ import annotations


def tower_count(state) -> int | None:
    """Sticks on the tower by the rules, for games that have a tower (Stick Stack)."""
    count = state.get("tower") if isinstance(state, dict) else getattr(state, "tower", None)
    return count if isinstance(count, int) and not isinstance(count, bool) else None


class TowerSticks:
    def __init__(self, count: int | None = 0):
        self.masses: list[int | None] = []
        self.reconcile(count)

    def update(self, fact: dict, applied: list[dict], count: int | None) -> None:
        """After the rules applied `applied` for `fact` (a board message, or {} for a key)."""
        for event in applied:
            if event.get("type") == "placed":
                g = fact.get("g") if fact.get("k") == "placed" else None
                self.masses.append(g if isinstance(g, int) and g > 0 else None)
            elif event.get("type") == "fell":
                n = event.get("count", 1)
                if isinstance(n, int) and n > 0:
                    del self.masses[max(0, len(self.masses) - n) :]
        self.reconcile(count)

    def reconcile(self, count: int | None) -> None:
        """The rules' count wins: forget the top sticks, or add unknown ones."""
        if count is None:
            return
        del self.masses[count:]
        self.masses += [None] * (count - len(self.masses))

    def arm_fields(self) -> dict | None:
        """The `arm` command's fields after a reset mid-round; None when no stick stands."""
        return {"sticks": list(self.masses)} if self.masses else None
