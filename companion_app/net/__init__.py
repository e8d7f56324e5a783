"""The tablet's link to its referee: the Link interface, MQTT seat/display clients, contract payloads."""
