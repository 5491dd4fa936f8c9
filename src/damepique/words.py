"""The pages' words, for what Python must say in people's words.

The one source of every sentence a person reads is the page's
``web/strings/en.js`` and ``fr.js`` (shipped with the package). Where Python
must produce text itself (``damepique advise`` and ``analyze``, the
analysis's ``reason``), it reads the plain-text entries of those files
(``key: "words {placeholder}"``) and fills them as the page's ``t()`` does
(``web/i18n.js``): the same placeholders, the same French typography, the
same numbers. So there is no Python copy of a sentence to keep in step, and
``tests/web/test_bots_words.py`` checks that Python and the page say the
same thing, word for word.

Only plain strings are read: a plural form or a sentence built by a
function stays the page's alone (Python asks for none).

>>> phrase("reason_ducks", "fr")
'passe sous la carte maîtresse'
>>> phrase("cmp_hearts", "en", a="2♠", b="Q♥", va="1.0", vb="2.5")
'With 2♠ you take 1.0 hearts on average; with Q♥, 2.5.'
>>> number(2.25, 1, "fr"), percent(0.23, "fr")
('2,3', '23\\u202f%')
"""

from __future__ import annotations

import json
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from importlib.resources import files

LANGS = ("en", "fr")
"""The languages the pages speak."""

# One entry: a key (a name, or a quoted one such as "seat_North-West"), a
# colon, a JSON-compatible string literal (the files write their plain
# words between double quotes).
_ENTRY = re.compile(r'(?:(?<![\w."])([A-Za-z_]\w*)|(?<![\w\\])"([\w-]+)"): ("(?:[^"\\\n]|\\.)*")')
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@cache
def words(lang: str) -> dict[str, str]:
    """Every plain-text entry of ``web/strings/LANG.js``, by key (the first
    of a key wins: a nested plural form's ``one``/``other`` never shadows a
    key of the page's table, whose keys come once each)."""
    if lang not in LANGS:
        raise ValueError(f"no words in {lang!r}: the pages speak {', '.join(LANGS)}")
    text = files("damepique").joinpath("web", "strings", f"{lang}.js").read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for m in _ENTRY.finditer(text):
        found.setdefault(m.group(1) or m.group(2), json.loads(m.group(3)))
    return found


def _french_spaces(s: str) -> str:
    # As i18n.js's frenchSpaces: a no-break space before ":" and inside « »,
    # a narrow one before ";", "!" and "?".
    s = s.replace(" :", "\u00a0:")
    s = re.sub(r" ([;!?])", "\u202f\\1", s)
    return s.replace("« ", "«\u00a0").replace(" »", "\u00a0»")


def phrase(key: str, lang: str = "en", **params: object) -> str:
    """The words of ``key`` in ``lang`` with their ``{placeholders}`` filled,
    as the page's ``t(key, params)`` gives them; raises KeyError naming a key
    with no plain words in that language."""
    try:
        s = words(lang)[key]
    except KeyError:
        raise KeyError(f"no plain words for {key!r} in web/strings/{lang}.js") from None
    s = _PLACEHOLDER.sub(lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), s)
    return _french_spaces(s) if lang == "fr" else s


def has(key: str, lang: str = "en") -> bool:
    """Whether ``key`` has plain words in ``lang``."""
    return key in words(lang)


def number(x: float, digits: int = 0, lang: str = "en") -> str:
    """``x`` with ``digits`` decimals as the page's ``num()`` writes it
    (``Intl.NumberFormat``: halves away from zero, 12.95 giving 13.0, a
    decimal comma in French, thousands grouped as the page groups them)."""
    # ICU rounds the shortest decimal that reads back as x (repr), not its binary value.
    q = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    text = f"{q:,.{digits}f}"
    # French groups thousands with a narrow no-break space and has a decimal comma.
    return text.replace(",", "\u202f").replace(".", ",") if lang == "fr" else text


def percent(x: float, lang: str = "en") -> str:
    """A share as the page's ``percent()`` writes it: ``23%``, in French ``23 %``
    (a narrow no-break space)."""
    n = number(math.floor(100 * x + 0.5), 0, lang)  # Math.round: halves up
    return f"{n}\u202f%" if lang == "fr" else f"{n}%"


_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_short(name: str, lang: str = "en") -> str:
    """A card (``"QS"``, ``"TH"``) as the page writes it short: ``Q♠``,
    ``10♥``; in French ``D♠`` (``index_R`` of the page's words).

    >>> card_short("QS", "fr"), card_short("TH")
    ('D♠', '10♥')
    """
    rank = name[0]
    index = phrase(f"index_{rank}", lang) if rank in "TJQKA" else rank
    return index + _SYMBOL[name[1]]


__all__ = ["LANGS", "card_short", "has", "number", "percent", "phrase", "words"]
