#!/usr/bin/env bash
# Runs a command with a real Secret Service: a private D-Bus session bus and an
# unlocked gnome-keyring holding only the secrets component. Used by CI and by the
# keychain tests (test/auth/keychain.test.ts), which refuse to run without it.
#
#   bash .ci/keyring.sh npx vitest run
#
# Needs the Debian packages dbus (dbus-run-session, dbus-send), gnome-keyring and,
# for reading items back in tests, libsecret-tools (secret-tool).
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: bash .ci/keyring.sh <command> [args...]" >&2
  exit 2
fi

if [ "${BO_KEYRING_SESSION:-}" != "1" ]; then
  # Re-enter this script inside a fresh session bus; its exit code is the command's.
  export BO_KEYRING_SESSION=1
  exec dbus-run-session -- bash "$0" "$@"
fi

# A throwaway keyring home, so the developer's own keyrings are never touched.
keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home/data"
export XDG_RUNTIME_DIR="$keyring_home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

# --unlock reads the login keyring's password from stdin; it prints
# GNOME_KEYRING_CONTROL=... lines to export.
while IFS= read -r line; do
  case "$line" in
    *=*) export "${line?}" ;;
  esac
done < <(printf 'bo-ci-keyring' | gnome-keyring-daemon --daemonize --unlock --components=secrets)

# Wait (at most 10 s) until the daemon owns org.freedesktop.secrets on the bus.
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
