#!/bin/sh
# Create the broker accounts of one board (run once as root on the Pi).
# The seat passwords are handed to a tablet inside the encrypted pairing grant, so put them
# into /etc/arbiter/referee.toml under [broker.seats] as well.
set -eu
FILE=/etc/mosquitto/arbiter.passwd
random() { head -c 18 /dev/urandom | base64 | tr -d '/+='; }
: > "$FILE"
for user in referee red blue display; do
    password=$(random)
    mosquitto_passwd -b "$FILE" "$user" "$password"
    echo "$user = \"$password\""
done
chown mosquitto:mosquitto "$FILE"
chmod 0640 "$FILE"
echo "Written $FILE; copy the lines above into /etc/arbiter/referee.toml ([broker.seats] for red/blue)."
