"""Arbiter's companion app (Kivy): the player tablet, the referee display, the arbiter's overview
and the demo's simulated board. `arbiter tablet` starts it (main.py), `arbiter demo` the demo.

Everything the screens know comes through a Link (link.py) as the app's own messages; the MQTT
side lives in network.py and contract_adapter.py only. docs/app.md describes the whole app.
"""
