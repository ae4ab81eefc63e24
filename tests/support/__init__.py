"""Test helpers shared by the store and service tests (not part of the bot)."""
