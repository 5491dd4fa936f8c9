"""An account's events: what its event stream (``GET /api/stream/event``,
``docs/bot-api.md``) tells it, published on the broker so that the process
holding the stream hears it whichever process the event happened in.

>>> channel("k123")
'account-events:k123'
"""

from __future__ import annotations

from ..protocol import Json, dumps
from .broker import Broker


def channel(account: str) -> str:
    """The broker channel of ``account``'s events."""
    return f"account-events:{account}"


async def tell(broker: Broker, account: str, event: Json) -> None:
    """Publish ``event`` (``{"type": ...}``) to ``account``'s event streams, if any."""
    await broker.publish(channel(account), dumps(event))


__all__ = ["channel", "tell"]
