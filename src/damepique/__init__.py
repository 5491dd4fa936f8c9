"""damepique: Hearts (Dame de pique) in Python."""

__version__ = "0.1.0"
