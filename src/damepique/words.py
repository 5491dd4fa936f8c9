"""The pages' words, for what Python must say in people's words.

The one source of every sentence a person reads is the page's
``web/strings/en.js`` and ``fr.js`` (shipped with the package). Where Python
must produce text itself (``damepique advise`` and ``analyze``, the
analysis's ``reason``, the score keeper's ``reason``), it reads the entries
of those files written as data, plain words (``key: "words {placeholder}"``)
and forms (``key: {one: "...", other: "..."}``), and fills them as the
page's ``t()`` does (``web/i18n.js``): the same placeholders, the same
French typography, the same numbers. So there is no Python copy of a
sentence to keep in step, and ``tests/web/test_bots_words.py`` checks that
Python and the page say the same thing, word for word.

A placeholder may say how its value is written, as in ``t()``:
``{value|json}``, ``{players|list}`` ("Ann, Bob and Cy"), or
``{total|n_points}``, the forms of ``n_points`` chosen by the value (a
list's length): an exact form ``"=VALUE"`` first, then the number's plural
form, then ``other``, filled with the params and ``n``. A sentence built by
a function stays the page's alone (Python asks for none).

>>> phrase("reason_ducks", "fr")
'passe sous la carte maîtresse'
>>> phrase("cmp_hearts", "en", a="2♠", b="Q♥", va="1.0", vb="2.5")
'With 2♠ you take 1.0 hearts on average; with Q♥, 2.5.'
>>> phrase("scm_tie", "en", players=["Ann", "Bob", "Cy"], total=1)
'Ann, Bob and Cy are tied on 1 point: play another deal'
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

# One entry: a key (a name, or a quoted one such as "seat_North-West" or a
# form's "=0"), a colon, a JSON-compatible string literal (the files write
# their words between double quotes).
_KEY = r'(?:(?<![\w."])([A-Za-z_]\w*)|(?<![\w\\])"([\w=-]+)")'
_STRING = r'("(?:[^"\\\n]|\\.)*")'
_ENTRY = re.compile(_KEY + ": " + _STRING)
# An entry of forms: a key, a colon, braces holding only entries of words.
_FORMS = re.compile(_KEY + r": \{((?:\s*" + _KEY + ": " + _STRING + r",?)+)\s*\}")
_PLACEHOLDER = re.compile(r"\{(\w+)(?:\|(\w+))?\}")


def _text(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"no words in {lang!r}: the pages speak {', '.join(LANGS)}")
    return files("damepique").joinpath("web", "strings", f"{lang}.js").read_text(encoding="utf-8")


@cache
def words(lang: str) -> dict[str, str]:
    """Every plain-text entry of ``web/strings/LANG.js``, by key (the first
    of a key wins: a nested plural form's ``one``/``other`` never shadows a
    key of the page's table, whose keys come once each)."""
    found: dict[str, str] = {}
    for m in _ENTRY.finditer(_text(lang)):
        found.setdefault(m.group(1) or m.group(2), json.loads(m.group(3)))
    return found


@cache
def forms(lang: str) -> dict[str, dict[str, str]]:
    """Every entry of forms of ``web/strings/LANG.js`` (``{one, other}``,
    ``"=0"``...), by key."""
    found: dict[str, dict[str, str]] = {}
    for m in _FORMS.finditer(_text(lang)):
        inner = {f.group(1) or f.group(2): json.loads(f.group(3)) for f in _ENTRY.finditer(m.group(3))}
        found.setdefault(m.group(1) or m.group(2), inner)
    return found


def _french_spaces(s: str) -> str:
    # As i18n.js's frenchSpaces: a no-break space before ":" and inside « »,
    # a narrow one before ";", "!" and "?".
    s = s.replace(" :", "\u00a0:")
    s = re.sub(r" ([;!?])", "\u202f\\1", s)
    return s.replace("« ", "«\u00a0").replace(" »", "\u00a0»")


def plural(n: float, lang: str) -> str:
    """The plural form of ``n`` as ``Intl.PluralRules(lang).select(n)`` names
    it (``one``, ``many``, ``other``), for the numbers the pages count.

    >>> plural(1, "en"), plural(0, "en"), plural(0, "fr"), plural(1_000_000, "fr")
    ('one', 'other', 'one', 'many')
    """
    whole = float(n).is_integer()
    if lang == "fr":
        if abs(n) < 2:
            return "one"
        return "many" if whole and n % 1_000_000 == 0 else "other"
    return "one" if whole and abs(n) == 1 else "other"


def _js(value: object) -> object:
    # A value as JavaScript holds it once parsed: a whole float is a number with no decimals.
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, list | tuple):
        return [_js(v) for v in value]
    if isinstance(value, dict):
        return {k: _js(v) for k, v in value.items()}
    return value


def _string(value: object) -> str:
    # As JavaScript's String(value).
    value = _js(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, list):
        return ",".join("" if v is None else _string(v) for v in value)
    return str(value)


def _written(value: object, how: str | None, params: dict[str, object], lang: str) -> str:
    # A placeholder's value as its "|how" says (i18n.js's written()).
    if how is None:
        return _string(value)
    if how == "json":
        return json.dumps(_js(value), ensure_ascii=False, separators=(",", ":"))
    if how == "list":
        items = [_string(v) for v in value] if isinstance(value, list | tuple) else [_string(value)]
        if len(items) <= 1:
            return items[0] if items else ""
        return _fill(words(lang)["list_last"], {"rest": ", ".join(items[:-1]), "last": items[-1]}, lang)
    choices = forms(lang).get(how)
    if choices is None:
        return _fill(words(lang)[how], params, lang) if how in words(lang) else "{" + how + "}"
    n = len(value) if isinstance(value, list | tuple) else value
    form = choices.get("=" + _string(n))
    if form is None and isinstance(n, int | float) and not isinstance(n, bool):
        form = choices.get(plural(n, lang))
    return _fill(choices["other"] if form is None else form, {**params, "n": n}, lang)


def _fill(s: str, params: dict[str, object], lang: str) -> str:
    return _PLACEHOLDER.sub(
        lambda m: (
            _written(params[m.group(1)], m.group(2), params, lang) if m.group(1) in params else m.group(0)
        ),
        s,
    )


def phrase(key: str, lang: str = "en", /, **params: object) -> str:
    """The words of ``key`` in ``lang`` with their ``{placeholders}`` filled,
    as the page's ``t(key, params)`` gives them (an entry of forms chosen by
    ``n``, as there); raises KeyError naming a key with no words written as
    data in that language."""
    if key in words(lang):
        s = words(lang)[key]
    elif key in forms(lang):
        choices = forms(lang)[key]
        n = params.get("n", 0)
        s = choices.get(plural(n, lang) if isinstance(n, int | float) else "other", choices["other"])
    else:
        raise KeyError(f"no words for {key!r} in web/strings/{lang}.js")
    s = _fill(s, params, lang)
    return _french_spaces(s) if lang == "fr" else s


def has(key: str, lang: str = "en") -> bool:
    """Whether ``key`` has words written as data (plain or forms) in ``lang``."""
    return key in words(lang) or key in forms(lang)


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


__all__ = ["LANGS", "card_short", "forms", "has", "number", "percent", "phrase", "plural", "words"]
