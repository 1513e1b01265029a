#!/bin/bash
# Upgrade stud-kiosk, keeping the hands, the settings and the dealer PIN.
#
#   sudo ./deploy/upgrade.sh              get the newest version (git pull) and install it
#   sudo ./deploy/upgrade.sh --no-pull    install the code as it is in this folder
#   sudo ./deploy/upgrade.sh --rollback   go back to the version before the last upgrade
#
# The upgrade backs up the database, installs the new version beside the old one
# (deploy/install.sh, with the options of the last install), restarts the server and
# checks that it answers; if it does not within two minutes, it goes back to the old
# version by itself. Other options: --root DIR (as for install.sh: nothing is started),
# --check-url URL (check this address instead of the kiosk's /api/health; for tests).
# Environment: STUD_KIOSK_UPGRADE_WAIT  seconds to wait for the server (default 120).
set -euo pipefail

say() { echo "stud-kiosk upgrade: $*"; }
die() { echo "stud-kiosk upgrade: $*" >&2; exit 2; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root=""
pull=1
rollback=0
check_url=""
wait_seconds="${STUD_KIOSK_UPGRADE_WAIT:-120}"
[[ "$wait_seconds" =~ ^[0-9]+$ ]] || die "STUD_KIOSK_UPGRADE_WAIT='$wait_seconds' is not a number of seconds"
while [ $# -gt 0 ]; do
    case "$1" in
        --root) root="${2:?--root needs a folder}"; shift 2 ;;
        --no-pull) pull=0; shift ;;
        --rollback) rollback=1; shift ;;
        --check-url) check_url="${2:?--check-url needs an address}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (allowed: --no-pull, --rollback, --root DIR, --check-url URL)" ;;
    esac
done
if [ -n "$root" ]; then
    root="$(cd "$root" && pwd)"
elif [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0"
fi
R="$root"
APP=/opt/stud-kiosk

system() {
    if [ -n "$root" ]; then say "would run: $*"; else "$@"; fi
}

port() {
    local value
    value="$(sed -n 's/^STUD_KIOSK_PORT=\([0-9]*\).*/\1/p' "$R/etc/stud-kiosk/env" 2>/dev/null | tail -n 1)"
    echo "${value:-8000}"
}

healthy() {
    # Wait (up to STUD_KIOSK_UPGRADE_WAIT seconds) for the server to answer its health check.
    local url="${check_url:-http://127.0.0.1:$(port)/api/health}"
    if [ -n "$root" ] && [ -z "$check_url" ]; then
        say "would check $url"
        return 0
    fi
    local deadline=$((SECONDS + wait_seconds))
    while true; do
        if curl --silent --fail --output /dev/null --max-time 3 "$url"; then
            return 0
        fi
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 1
    done
}

switch_back() {
    # Point "current" at "previous" (and the other way round), restart the server.
    local current previous
    current="$(readlink "$R$APP/current" 2>/dev/null || true)"
    previous="$(readlink "$R$APP/previous" 2>/dev/null || true)"
    [[ -n "$previous" && -d "$R$previous" ]] || die "there is no earlier version to go back to"
    ln -sfn "$previous" "$R$APP/.current.new"
    mv -T "$R$APP/.current.new" "$R$APP/current"
    ln -sfn "$current" "$R$APP/previous"
    say "now running ${previous##*/} (was ${current##*/})"
    system systemctl restart stud-kiosk.service
}

if [ "$rollback" -eq 1 ]; then
    switch_back
    if healthy; then
        say "the server answers."
        exit 0
    fi
    die "the server does not answer: see /var/log/stud-kiosk/server.log"
fi

if [ "$pull" -eq 1 ] && [ -d "$here/.git" ]; then
    say "getting the newest version"
    if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
        runuser -u "$SUDO_USER" -- git -C "$here" pull --ff-only
    else
        git -c safe.directory="$here" -C "$here" pull --ff-only
    fi
fi

before="$(readlink "$R$APP/current" 2>/dev/null || true)"
if [ -n "$root" ]; then
    "$here/deploy/install.sh" --source "$here" --root "$root"
else
    "$here/deploy/install.sh" --source "$here"
fi
after="$(readlink "$R$APP/current" 2>/dev/null || true)"
if [ "$before" = "$after" ]; then
    say "already up to date (${after##*/})."
    exit 0
fi
if healthy; then
    say "upgraded to ${after##*/}; the server answers."
    exit 0
fi
say "the new version does not answer: going back to ${before##*/}"
system tail -n 30 /var/log/stud-kiosk/server.log || true
switch_back
healthy || die "the old version does not answer either: see /var/log/stud-kiosk/server.log"
die "upgrade failed, the old version runs again; the database backup from before is in /var/backups/stud-kiosk"
