"""Arbiter: companion_app."""
