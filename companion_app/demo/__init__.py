"""`arbiter demo`: the whole system on one computer (the one part of the app that may start a referee)."""
