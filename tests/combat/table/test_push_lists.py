"""How `combat.pushes.changes` brings a list region from one set of items to the next: only
the items that came, changed or went, each by its id; the region whole when that cannot say
it (a reorder, an item new below the top)."""

from __future__ import annotations

from combat.pushes import Item, Part, Track, changes


class Render:
    """Items as `<li id>` with their data, a region as a `<section>` around them."""

    def region(self, part: Part, items: str) -> str:
        return f'<section id="{part.id}" hx-swap-oob="true"><ol id="list">{items}</ol></section>'

    def item(self, part: Part, item: Item, *, swap: bool) -> str:
        oob = ' hx-swap-oob="true"' if swap else ""
        return f'<li id="{item.id}"{oob}>{item.data}</li>'


def listed(*items: tuple[str, str]) -> Part:
    return Part("region", None, ("frame",), tuple(Item(i, (i,), d) for i, d in items), "list")


def push(before: Part, after: Part) -> str:
    track, render = Track(), Render()
    _html, shown = changes(None, {}, [before], track, "pl", render)
    html, _shown = changes({before.id: before}, shown, [after], track, "pl", render)
    return html


def test_an_item_that_left_the_middle_is_deleted_by_its_id_alone() -> None:
    html = push(listed(("a", 1), ("b", 2), ("c", 3)), listed(("a", 1), ("c", 3)))
    assert html == '<div id="b" hx-swap-oob="delete"></div>'


def test_new_items_come_at_the_top_and_changed_ones_in_place() -> None:
    html = push(listed(("a", 1), ("b", 2)), listed(("z", 0), ("a", 1), ("b", 5)))
    assert html == (
        '<div hx-swap-oob="afterbegin:#list"><li id="z">0</li></div>'
        '<li id="b" hx-swap-oob="true">5</li>'
    )


def test_a_reorder_or_an_item_new_below_the_top_sends_the_region_whole() -> None:
    for after in (listed(("b", 2), ("a", 1)), listed(("a", 1), ("n", 9), ("b", 2))):
        html = push(listed(("a", 1), ("b", 2)), after)
        assert html.startswith('<section id="region"') and "delete" not in html
