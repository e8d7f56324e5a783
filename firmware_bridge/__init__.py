"""Arbiter: firmware_bridge."""
