"""Alembic migrations of the app's database (see ``damepique.server.storage.database``)."""
