"""The quick-match queue on its own (``server/quick/queue.py``): who sits
together, checked by hand on small queues and, on random ones, against the
plain rule it implements faster (each anchor, oldest first, takes the nearest
ratings that fit everyone's window; casual: the oldest)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from damepique.server.quick.queue import Choice, Entry, Queue, _close_enough

RANKED, CASUAL, FEW = Choice(ranked=True), Choice(), Choice(players="3-5")


def queue(*entries: tuple[str, Choice, float, float, float | None]) -> Queue:
    q = Queue()
    for ticket, choice, since, wait, rating in entries:
        q.add(Entry(ticket, f"person-{ticket}", choice, since, wait, rating))
    return q


def tickets(groups: list[list[Entry]]) -> list[list[str]]:
    return [[e.ticket for e in g] for g in groups]


def test_four_casual_people_sit_at_once_oldest_first_and_the_fifth_waits() -> None:
    q = queue(*((f"c{i}", CASUAL, float(i), 30.0, None) for i in range(5)))
    assert tickets(q.groups(now=5.0)) == [["c0", "c1", "c2", "c3"]]
    assert list(q.entries) == ["c4"]
    assert q.groups(now=33.5) == []  # its wait ends at 4 + 30
    assert tickets(q.groups(now=34.0)) == [["c4"]]  # alone: bots fill


def test_three_to_five_sits_five_at_once_or_whoever_waits_when_the_wait_is_over() -> None:
    q = queue(*((f"f{i}", FEW, float(i), 20.0, None) for i in range(3)))
    assert q.groups(now=10.0) == []  # three could play, but more may come
    assert tickets(q.groups(now=20.0)) == [["f0", "f1", "f2"]]
    q = queue(*((f"f{i}", FEW, 0.0, 20.0, None) for i in range(6)))
    assert tickets(q.groups(now=1.0)) == [["f0", "f1", "f2", "f3", "f4"]]


def test_choices_never_mix() -> None:
    q = queue(
        ("a", CASUAL, 0.0, 10.0, None), ("b", Choice(target=50), 0.0, 10.0, None), ("c", FEW, 0.0, 10.0, None)
    )
    assert sorted(tickets(q.groups(now=10.0))) == [["a"], ["b"], ["c"]]


def test_ranked_people_sit_with_the_nearest_ratings_inside_every_window() -> None:
    # At 10 s the windows are 100 + 10 * 10 = 200 points.
    q = queue(
        ("a", RANKED, 0.0, 10.0, 1500.0),
        ("b", RANKED, 0.0, 60.0, 1690.0),  # 190 above a: inside a's window...
        ("c", RANKED, 0.0, 60.0, 1320.0),  # ...180 below a, but 370 from b: not with b
        ("d", RANKED, 0.0, 60.0, 1450.0),
        ("e", RANKED, 0.0, 60.0, 2500.0),
    )
    # a (due) takes d (50), c (180: fits a and d), then b is 370 from c: a table of three and a bot.
    assert tickets(q.groups(now=10.0)) == [["a", "d", "c"]]
    assert sorted(q.entries) == ["b", "e"]


def test_a_ranked_window_widens_with_the_wait() -> None:
    # 300 points apart: their windows (100 + 10 a second) reach that at 20 s.
    q = queue(("a", RANKED, 0.0, 5.0, 1500.0), ("b", RANKED, 0.0, 5.0, 1800.0))
    assert tickets(q.groups(now=5.0)) == [["a"], ["b"]]  # 150-point windows: apart, with bots
    q = queue(("a", RANKED, 0.0, 20.0, 1500.0), ("b", RANKED, 0.0, 20.0, 1800.0))
    assert tickets(q.groups(now=20.0)) == [["a", "b"]]


def reference(q: Queue, now: float) -> list[list[str]]:
    """The rule, written plainly (quadratic): each anchor, oldest first."""
    entries = dict(q.entries)
    out = []
    for anchor in sorted(entries.values(), key=lambda e: e.since):
        if anchor.ticket not in entries:
            continue
        others = [e for e in entries.values() if e.choice == anchor.choice and e is not anchor]
        if anchor.choice.ranked:
            others.sort(key=lambda e: (abs((e.rating or 0) - (anchor.rating or 0)), e.since))
        else:
            others.sort(key=lambda e: e.since)
        group, most = [anchor], anchor.choice.seats[1]
        for e in others:
            if len(group) >= most:
                break
            if not anchor.choice.ranked or all(_close_enough(e, g, now) for g in group):
                group.append(e)
        if len(group) >= most or now >= anchor.due:
            for e in group:
                del entries[e.ticket]
            out.append([e.ticket for e in group])
    return out


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 40), st.floats(0, 120))
def test_random_queues_group_as_the_plain_rule_says(seed: int, n: int, now: float) -> None:
    rng = random.Random(seed)
    choices = [RANKED, CASUAL, FEW, Choice(ranked=True, players="3-5")]
    sinces = rng.sample(range(1000), n)  # distinct: no ties to break
    ratings = rng.sample(range(1000, 2400), n)
    q = queue(
        *(
            (
                f"t{i}",
                rng.choice(choices),
                sinces[i] / 10,
                float(rng.choice((0, 15, 30, 60))),
                float(ratings[i]),
            )
            for i in range(n)
        )
    )
    expected = reference(q, now)
    got = tickets(q.groups(now))
    assert sorted(got) == sorted(expected)
    assert sum(len(g) for g in got) + len(q) == n
