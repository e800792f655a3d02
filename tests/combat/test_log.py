"""Which log entries are in force after undos (combat/log.py), without a database."""

from __future__ import annotations

from combat.log import Step, effective, undone


def steps(*entries: int | tuple[str, int]) -> list[Step]:
    """Entries numbered from 1: an int is a command, ("undo", K) an undo back to K."""
    out = []
    for seq, entry in enumerate(entries, start=1):
        undo_to = entry[1] if isinstance(entry, tuple) else None
        out.append(Step(seq, [] if undo_to is not None else [{"n": seq}], undo_to))
    return out


def seqs(found: list[Step]) -> list[int]:
    return [s.seq for s in found]


def test_an_undo_drops_the_entries_after_its_target() -> None:
    log = steps(1, 2, 3, ("undo", 1))
    assert seqs(effective(log)) == [1]
    assert undone(log) == {2, 3}


def test_commands_after_an_undo_count() -> None:
    log = steps(1, 2, ("undo", 1), 4, 5)
    assert seqs(effective(log)) == [1, 4, 5]
    assert undone(log) == {2}


def test_an_undo_to_before_an_earlier_undo_brings_back_what_that_undo_took() -> None:
    # Entry 4 took 2 and 3 back; entry 5 goes back to just after 3, when 2 and 3 were in force.
    log = steps(1, 2, 3, ("undo", 1), ("undo", 3))
    assert seqs(effective(log)) == [1, 2, 3]
    assert undone(log) == set()


def test_an_undo_to_a_point_inside_an_undone_stretch_restores_that_point() -> None:
    # 2 was undone by 3; 4 and 5 came after; undoing to 2 restores [1, 2] as they stood then.
    log = steps(1, 2, ("undo", 1), 4, 5, ("undo", 2))
    assert seqs(effective(log)) == [1, 2]
    assert undone(log) == {4, 5}


def test_an_undo_to_zero_empties_the_log() -> None:
    assert effective(steps(1, 2, ("undo", 0))) == []
