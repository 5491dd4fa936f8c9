"""damepique.server."""
