"""Renderer tests."""
