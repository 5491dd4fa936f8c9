"""damepique.scorer."""
