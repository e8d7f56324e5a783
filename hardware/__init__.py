"""Arbiter: hardware."""
