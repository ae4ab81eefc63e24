"""Slash commands: /game, /play, /admin and /mygames."""
