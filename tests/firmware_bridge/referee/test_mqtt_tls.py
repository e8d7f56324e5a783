"""mqtts:// brokers: the referee and the tablets over TLS, checked against the broker's CA."""

from __future__ import annotations

import shutil
import subprocess

from firmware_bridge.protocol.mqtt_link import MqttLink
from firmware_bridge.referee.broker import Mosquitto
from tests.firmware_bridge.helpers import requires_mosquitto, start_table, submit_setups
from tests.system_packages import requires

pytestmark = [requires_mosquitto,
              requires("openssl", shutil.which("openssl") is not None, "it makes the test certificates")]


def make_certificates(directory) -> tuple[str, str, str]:
    """A throw-away CA and a server certificate for 127.0.0.1."""
    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=directory)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=arbiter test CA",
        "-keyout", "ca.key", "-out", "ca.pem")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
        "-out", "server.csr")
    (directory / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", "san.ext", "-out", "server.pem")
    return str(directory / "ca.pem"), str(directory / "server.pem"), str(directory / "server.key")


def test_a_game_runs_over_mqtts(tmp_path):
    ca, cert, key = make_certificates(tmp_path)
    with Mosquitto(tls=(ca, cert, key)) as broker:
        assert broker.url.startswith("mqtts://")
        table = start_table(broker.url, tmp_path / "journal.db", ca_file=ca, client_ca_file=ca)
        try:
            submit_setups(table)
            assert table.red.view["viewer"] == "red"
        finally:
            table.close()


def test_a_broker_with_an_unknown_certificate_is_refused(tmp_path):
    ca, cert, key = make_certificates(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    other_ca, _, _ = make_certificates(other)
    with Mosquitto(tls=(ca, cert, key)) as broker:
        link = MqttLink(broker.url, "suspicious", ca_file=other_ca)
        assert not link.start(wait=2.0)
        link.stop()
