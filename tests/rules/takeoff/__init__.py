"""Takeoff! rules tests."""
