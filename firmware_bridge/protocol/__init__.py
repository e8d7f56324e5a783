"""The wire protocol the referee, the tablets and the display share: contract, crypto, MQTT link, clients, discovery."""
