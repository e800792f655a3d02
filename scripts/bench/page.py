"""A page kept by pushes as htmx keeps it, for the tests and the benchmark's bot: each push's
out-of-band swaps applied by element id (lxml parses them). The product has no such copy: the
browser's htmx is the page, and the browser tests check it there.

`Page` is a mapping of region id -> that region's HTML as the page shows it after the pushes so
far (an element swapped in that no region holds becomes a region of its own: a route answer).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import html as lxml_html

OOB = "hx-swap-oob"


class Page(dict[str, str]):
    def __init__(self) -> None:
        super().__init__()
        self._elements: dict[str, Any] = {}  # region id -> its element

    def apply(self, push: str) -> list[str]:
        """Take a push's `html` as htmx does; the ids of the regions it touched."""
        touched: dict[str, None] = {}
        for element in _swaps(push):
            how = element.attrib.pop(OOB)
            if how.startswith("afterbegin:#"):
                region, target = self._find(how.split("#", 1)[1])
                if target is not None:
                    for i, child in enumerate(list(element)):
                        target.insert(i, child)
                    touched[region] = None
                continue
            name = element.get("id", "")
            region, old = self._find(name)
            if how == "delete":
                if old is not None and region != name:
                    old.getparent().remove(old)
                    touched[region] = None
                elif old is not None:
                    del self._elements[name], self[name]
            elif old is None or region == name:
                self._elements[name] = element
                touched[name] = None
            else:
                old.getparent().replace(old, element)
                touched[region] = None
        for name in touched:
            if name in self._elements:
                self[name] = lxml_html.tostring(self._elements[name], encoding="unicode")
        return list(touched)

    def drop(self, name: str) -> bool:
        """Forget a region (a route's answer, once the table moved on)."""
        self._elements.pop(name, None)
        return self.pop(name, None) is not None

    def _find(self, element_id: str) -> tuple[str, Any]:
        """The region that holds the element `element_id`, and the element."""
        for name, region in self._elements.items():
            found = region.xpath("descendant-or-self::*[@id=$i]", i=element_id)
            if found:
                return name, found[0]
        return "", None


def _swaps(push: str) -> list[Any]:
    """The push's out-of-band elements: at its top, or inside an element that only carries
    them (an `<svg>` around map tokens, so that they are read as SVG)."""
    found = []
    for element in _elements(push):
        found += [element] if OOB in element.attrib else element.xpath(f".//*[@{OOB}]")
    return found


def _elements(push: str) -> list[Any]:
    if not push.strip():
        return []
    return [e for e in lxml_html.fragments_fromstring(push) if not isinstance(e, str)]


def normal(html: str) -> str:
    """HTML as a page holds it, for comparisons: parsed and written again without the swap
    marks and the server's clock when a part was rendered (a prompt's `data-server-now` and the
    seconds its countdown showed then: a page kept by pushes holds the time each part was
    sent), white space between tags dropped and other runs of it as one."""
    elements = _elements(html)
    for element in elements:
        for marked in element.xpath(f"descendant-or-self::*[@{OOB}]"):
            del marked.attrib[OOB]
        for stamped in element.xpath("descendant-or-self::*[@data-server-now]"):
            del stamped.attrib["data-server-now"]
        for shown in element.xpath("descendant-or-self::*[@class='countdown-text']"):
            shown.text = ""
    text = "".join(lxml_html.tostring(e, encoding="unicode") for e in elements)
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", text)).strip()
