"""damepique.bots."""
