"""Arbiter: engine."""
