"""Challenges between accounts (people and bots), and an account's event stream."""
