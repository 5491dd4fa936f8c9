"""A sheet as CSV (for a spreadsheet) and as JSON (the whole sheet, to keep).

>>> from damepique.scorer import PointsEntry, Sheet
>>> sheet = Sheet(["Ann", "Bob", "Cy"])
>>> _ = sheet.add(PointsEntry((20, 6, 0)))
>>> print(to_csv(sheet), end="")
deal,pass,moon,Ann,Bob,Cy
1,left,,20,6,0
total,,,20,6,0
"""

from __future__ import annotations

import csv
import io
from typing import Any

from .sheet import Sheet

FORMAT = "damepique-sheet/1"


def _cell(text: str) -> str:
    # A name such as "=SUM(A1)" must stay text in a spreadsheet.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def to_csv(sheet: Sheet) -> str:
    """One row per deal (its number, the pass, who shot the moon, each player's points), then totals."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["deal", "pass", "moon", *(_cell(n) for n in sheet.names)])
    for deal in sheet.view()["deals"]:
        moon = "" if deal["moon"] is None else _cell(sheet.names[deal["moon"]])
        writer.writerow([deal["number"], deal["pass"], moon, *deal["points"]])
    writer.writerow(["total", "", "", *sheet.totals])
    return out.getvalue()


def to_export_json(sheet: Sheet, **extra: Any) -> dict[str, Any]:
    """The sheet's view under a format tag; ``extra`` adds fields such as dates."""
    view = sheet.view()
    del view["can_undo"]
    return {"format": FORMAT, **extra, **view}
