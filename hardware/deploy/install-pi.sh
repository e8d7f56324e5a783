#!/bin/sh
# Install the Arbiter referee on a Raspberry Pi (Raspberry Pi OS / Debian), from a copy of this
# repository, with only what the Pi needs: `pip install '.[pi]'` into /opt/arbiter/.venv (no
# Kivy, no test tools), a system user, the udev rule for the scanner, a first config and the
# systemd service. It uses the embedded broker (nothing else to set up); docs/deployment.md
# says how to use the system mosquitto with accounts instead.
#
#   sudo sh hardware/deploy/install-pi.sh [BOARD-NAME]     (BOARD-NAME: e.g. kitchen)
#
# ARBITER_DRY_RUN=1 prints each step instead of running it (what the tests check).
set -eu

BOARD="${1:-kitchen}"
SOURCE="$(cd "$(dirname "$0")/../.." && pwd)"
PREFIX="${ARBITER_PREFIX:-/opt/arbiter}"
CONFIG_DIR="${ARBITER_CONFIG_DIR:-/etc/arbiter}"

run() {
    if [ "${ARBITER_DRY_RUN:-}" = "1" ]; then
        echo "+ $*"
    else
        "$@"
    fi
}

case "$BOARD" in
    *[!a-z0-9-]* | "") echo "install-pi: the board name may use a-z, 0-9 and '-' only" >&2; exit 2 ;;
esac

echo "Installing the Arbiter referee for the board '$BOARD' from $SOURCE"
run apt-get install -y python3-venv
run id -u arbiter >/dev/null 2>&1 || run useradd --system --home /var/lib/arbiter --groups dialout,gpio arbiter
run mkdir -p "$PREFIX" "$CONFIG_DIR" /var/lib/arbiter
run python3 -m venv "$PREFIX/.venv"
run "$PREFIX/.venv/bin/pip" install --quiet "$SOURCE[pi]"
run cp "$SOURCE/hardware/deploy/99-arbiter-board.rules" /etc/udev/rules.d/
run udevadm control --reload
if [ ! -e "$CONFIG_DIR/referee.toml" ]; then
    echo "Writing $CONFIG_DIR/referee.toml (board '$BOARD', classic Stratego, embedded broker)"
    if [ "${ARBITER_DRY_RUN:-}" != "1" ]; then
        cat > "$CONFIG_DIR/referee.toml" <<EOF
[board]
name = "$BOARD"
title = "$BOARD"
profile = "10x10"
input = "board"

[game]
variant = "classic"

[journal]
path = "/var/lib/arbiter/journal.db"

[announce]
enabled = true
EOF
    fi
fi
run chown -R arbiter: /var/lib/arbiter
run cp "$SOURCE/hardware/deploy/arbiter-referee.service" /etc/systemd/system/
run systemctl daemon-reload
run systemctl enable --now arbiter-referee
echo "Done. The referee starts with the Pi; its pairing codes: journalctl -u arbiter-referee -f"
