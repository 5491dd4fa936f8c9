"""The deal secret in recorded frames: hidden until the game is over, then told to all."""

from __future__ import annotations

import json
from typing import Any


def secret_kept_until_the_end(record: dict[str, Any], frames: list[dict[str, Any]]) -> None:
    """The deal secret reaches nobody before the game is over, and everybody
    at the table once it is; every state carries the commitment announced
    before the first deal."""
    fairness = record["fairness"]
    secret, promised = fairness["secret"], fairness["commitment"]
    revealed = False
    for msg in frames:
        if msg["type"] == "state" and "fairness" in msg:
            assert msg["fairness"]["commitment"] == promised
            if msg["over"]:
                assert msg["fairness"]["secret"] == secret
                revealed = True
                continue
        assert secret not in json.dumps(msg), msg
    assert revealed, "the secret was never revealed at the end"
