#!/usr/bin/env bash
# Runs a command with a real Secret Service: a private D-Bus session bus and an
# unlocked gnome-keyring holding only the secrets component. Used by CI and by the
# keychain tests (test/auth/keychain.e2e.test.ts), which refuse to run without it.
#
#   bash .ci/keyring.sh npx vitest run
#
# Needs the Debian packages dbus (dbus-run-session, dbus-send), gnome-keyring and,
# for reading items back in tests, libsecret-tools (secret-tool).
#
# The bus starts gnome-keyring itself, on the first call to org.freedesktop.secrets,
# from a service file of this script's: unlocked with a password of its own, over a
# throwaway keyring folder. gnome-keyring-daemon has been seen to abort (a GLib
# assertion) under a loaded suite; the bus then starts it again the same way, over the
# same folder, so the keyring and the items already written come back unlocked instead
# of one crash failing every later keychain test.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: bash .ci/keyring.sh <command> [args...]" >&2
  exit 2
fi

if [ "${BO_KEYRING_SESSION:-}" != "1" ]; then
  # A throwaway keyring home, so the developer's own keyrings are never touched; the
  # bus, and so every gnome-keyring it starts, runs with these folders.
  keyring_home="$(mktemp -d)"
  trap 'rm -rf "$keyring_home"' EXIT
  export XDG_DATA_HOME="$keyring_home/data"
  export XDG_RUNTIME_DIR="$keyring_home/run"
  mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" "$keyring_home/services"
  chmod 700 "$XDG_RUNTIME_DIR"
  cat > "$keyring_home/services/org.freedesktop.secrets.service" <<'SERVICE'
[D-BUS Service]
Name=org.freedesktop.secrets
Exec=/bin/sh -c "printf bo-ci-keyring | exec gnome-keyring-daemon --foreground --unlock --components=secrets"
SERVICE
  cat > "$keyring_home/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <servicedir>$keyring_home/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
  export BO_KEYRING_SESSION=1
  status=0
  dbus-run-session --config-file="$keyring_home/session.conf" -- bash "$0" "$@" || status=$?
  exit "$status"
fi

# Start the keyring now and wait (at most 10 s) until it owns org.freedesktop.secrets.
dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
  org.freedesktop.DBus.StartServiceByName string:org.freedesktop.secrets uint32:0 >/dev/null 2>&1 || true
owned=0
for _ in $(seq 1 100); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
    owned=1
    break
  fi
  sleep 0.1
done
if [ "$owned" != 1 ]; then
  echo "keyring.sh: gnome-keyring did not claim org.freedesktop.secrets within 10 s" >&2
  exit 1
fi

status=0
"$@" || status=$?
exit "$status"
