#!/bin/bash
# Install stud-kiosk on Raspberry Pi OS Bookworm or Debian 12, or upgrade it in place.
#
#   sudo ./deploy/install.sh [options]
#
# Run it from the folder of the version to install. It builds the project's wheel and installs
# it, not the folder: the folder can be moved or deleted afterwards. Running it again is safe:
# what is already in place is left alone; new code becomes a new release beside the old one,
# the database and settings are kept, the server restarts on the new release.
#
# Options (remembered in /etc/stud-kiosk/install.conf for the next run):
#   --screen labwc|cage|none  how the dealer page is shown on the touchscreen:
#                         labwc  Raspberry Pi OS with desktop: Chromium starts with the desktop
#                         cage   Raspberry Pi OS Lite: Chromium in cage, started by systemd
#                         none   no screen (a server for the TV only)     (default labwc)
#   --desktop-user NAME   the user who logs in to the desktop (labwc; default: the user who
#                         ran sudo, else the first ordinary user)
#   --extras LIST         optional parts to install, e.g. "room" for a card room
# Other options:
#   --root DIR            lay the files down under DIR instead of /; users, apt, systemctl,
#                         udevadm and raspi-config are not run, only printed (for tests)
#   --source DIR          the code to install (default: the folder this script is in)
#   --python PATH         the Python (with pip) to build the virtual environment with
#                         (default /usr/bin/python3)
#   --no-restart          do not start or restart anything
# Environment: STUD_KIOSK_PIP_OPTIONS  extra options for pip (e.g. a local package mirror).
set -euo pipefail

say() { echo "stud-kiosk install: $*"; }
die() { echo "stud-kiosk install: $*" >&2; exit 2; }

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
root=""
screen=""
desktop_user=""
extras=""
extras_set=0
python="/usr/bin/python3"
restart=1

while [ $# -gt 0 ]; do
    case "$1" in
        --root) root="${2:?--root needs a folder}"; shift 2 ;;
        --root=*) root="${1#*=}"; shift ;;
        --source) source_dir="$(cd "${2:?--source needs a folder}" && pwd)"; shift 2 ;;
        --screen) screen="${2:?--screen needs labwc, cage or none}"; shift 2 ;;
        --desktop-user) desktop_user="${2:?--desktop-user needs a user name}"; shift 2 ;;
        --extras) extras="${2?--extras needs a list}"; extras_set=1; shift 2 ;;
        --python) python="${2:?--python needs a path}"; shift 2 ;;
        --no-restart) restart=0; shift ;;
        -h|--help) sed -n '2,/^set -/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done
if [ -z "$root" ] && [ -n "${DESTDIR:-}" ]; then
    root="$DESTDIR"
fi
if [ -n "$root" ]; then
    mkdir -p "$root"
    root="$(cd "$root" && pwd)"
    [ "$root" != "/" ] || root=""
fi
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0 $*"
fi
[[ -f "$source_dir/pyproject.toml" && -d "$source_dir/kiosk" ]] ||
    die "$source_dir does not hold stud-kiosk (no pyproject.toml / kiosk/); use --source"

# Where things go (under $root when testing).
R="$root"
APP=/opt/stud-kiosk
ETC=/etc/stud-kiosk
STATE=/var/lib/stud-kiosk
BACKUPS=/var/backups/stud-kiosk
LOGS=/var/log/stud-kiosk
UNITS=/etc/systemd/system
CONF="$ETC/install.conf"

# -- remembered options ----------------------------------------------------------------------
if [ -f "$R$CONF" ]; then
    saved_screen="$(sed -n 's/^screen=//p' "$R$CONF")"
    saved_user="$(sed -n 's/^desktop_user=//p' "$R$CONF")"
    saved_extras="$(sed -n 's/^extras=//p' "$R$CONF")"
    [ -n "$screen" ] || screen="$saved_screen"
    [ -n "$desktop_user" ] || desktop_user="$saved_user"
    [ "$extras_set" -eq 1 ] || extras="$saved_extras"
fi
screen="${screen:-labwc}"
case "$screen" in
    labwc|cage|none) ;;
    *) die "--screen '$screen' is not known (allowed: labwc, cage, none)" ;;
esac
[[ "$extras" =~ ^[a-z,]*$ ]] || die "--extras '$extras': a comma-separated list such as 'room'"
if [ "$screen" = labwc ] && [ -z "$desktop_user" ]; then
    if [ -n "${SUDO_USER:-}" ] && [ "${SUDO_USER}" != root ]; then
        desktop_user="$SUDO_USER"
    else
        desktop_user="$(awk -F: '$3 >= 1000 && $3 < 60000 { print $1; exit }' "$R/etc/passwd" 2>/dev/null || true)"
    fi
    [ -n "$desktop_user" ] || die "no desktop user found: give --desktop-user NAME (or --screen cage)"
fi
[[ -z "$desktop_user" || "$desktop_user" =~ ^[a-z_][a-z0-9_-]*$ ]] ||
    die "--desktop-user '$desktop_user' is not a user name"

# -- helpers -----------------------------------------------------------------------------------
changed=()          # files this run wrote or changed
units_changed=0
udev_changed=0

system() {
    # A command that changes the running system: printed only when installing under --root.
    if [ -n "$root" ]; then
        say "would run: $*"
    else
        "$@"
    fi
}

put_file() {
    # put_file SOURCE DEST MODE [OWNER:GROUP]: install SOURCE as $R/DEST when it differs.
    local from="$1" dest="$R$2" mode="$3" owner="${4:-}"
    if [ -f "$dest" ] && cmp -s "$from" "$dest"; then
        return 1
    fi
    install -D -m "$mode" "$from" "$dest"
    [ -z "$owner" ] || own "$owner" "$dest"
    changed+=("$2")
    return 0
}

put_text() {
    # put_text DEST MODE < text
    local tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    local status=0
    put_file "$tmp" "$@" || status=1
    rm -f "$tmp"
    return "$status"
}

own() {
    # own OWNER:GROUP PATH...: chown on a real install only (the users exist only there).
    if [ -z "$root" ]; then
        chown "$@"
    fi
}

make_dir() {
    # make_dir PATH MODE [OWNER:GROUP]
    local dir="$R$1"
    if [ ! -d "$dir" ]; then
        install -d -m "$2" "$dir"
        changed+=("$1/")
    fi
    chmod "$2" "$dir"
    [ -z "${3:-}" ] || own "$3" "$dir"
}

# -- 1. system packages ------------------------------------------------------------------------
packages=(python3-venv python3-pip python3-dev sqlite3 curl ca-certificates git)
if [ "$screen" != none ]; then
    if [ -z "$root" ] && apt-cache show chromium-browser >/dev/null 2>&1; then
        packages+=(chromium-browser)      # Raspberry Pi OS
    else
        packages+=(chromium)              # Debian
    fi
    # the dealer screen's spoken prompts (a house option): Chromium speaks through
    # speech-dispatcher, which uses espeak-ng's Italian and English voices
    packages+=(speech-dispatcher espeak-ng)
fi
[ "$screen" != cage ] || packages+=(cage)
missing=()
for pkg in "${packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing system packages: ${missing[*]}"
    system apt-get update -qq
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# -- 2. users ------------------------------------------------------------------------------------
ensure_user() {
    # ensure_user NAME HOME GROUPS
    local name="$1" home="$2" groups="$3"
    if [ -n "$root" ]; then
        say "would ensure system user $name (home $home) in groups $groups"
        return
    fi
    if ! id "$name" >/dev/null 2>&1; then
        say "creating system user $name"
        useradd --system --user-group --home-dir "$home" --no-create-home \
            --shell /usr/sbin/nologin "$name"
    fi
    local group
    for group in ${groups//,/ }; do
        if getent group "$group" >/dev/null && ! id -nG "$name" | tr ' ' '\n' | grep -qx "$group"; then
            usermod -a -G "$group" "$name"
        fi
    done
}
ensure_user stud "$STATE" dialout,video
[ "$screen" != cage ] || ensure_user stud-screen /var/lib/stud-kiosk-screen video,render,input

# -- 3. folders --------------------------------------------------------------------------------
make_dir "$APP" 0755
make_dir "$APP/releases" 0755
make_dir "$ETC" 0750 root:stud
make_dir "$STATE" 0750 stud:stud
make_dir "$BACKUPS" 0750 stud:stud
make_dir "$LOGS" 0750 root:adm

# -- 4. the code: one release folder per version, with its own virtual environment ------------
# A release holds the project's wheel, a virtual environment with the wheel installed (the program
# needs nothing from the source folder afterwards), and the deploy/ scripts and docs/ that the
# systemd units and the desktop's autostart refer to.
version="$(sed -n 's/^version *= *"\(.*\)"/\1/p' "$source_dir/pyproject.toml" | head -n 1)"
files="$(mktemp)"
stage=""
trap 'rm -rf "$files" ${stage:+"$stage"}' EXIT
list_sources() {
    # The files of the checkout, NUL-separated: git's view when it is a git checkout.
    if git -c safe.directory="$source_dir" -C "$source_dir" rev-parse --is-inside-work-tree \
        >/dev/null 2>&1; then
        git -c safe.directory="$source_dir" -C "$source_dir" ls-files -z --cached --others \
            --exclude-standard | while IFS= read -r -d '' file; do
            [ -f "$source_dir/$file" ] && printf '%s\0' "$file"
        done
    else
        (cd "$source_dir" && find . -type f \
            -not -path './.venv/*' -not -path './.git/*' -not -path './instance/*' \
            -not -path './.cache/*' -not -path '*/__pycache__/*' -not -path './build/*' \
            -not -path './dist/*' -not -path '*.egg-info/*' -not -path './.*_cache/*' \
            -not -path './test-artifacts/*' -printf '%P\0')
    fi
}
list_sources | LC_ALL=C sort -z >"$files"
[ -s "$files" ] || die "found no files to install in $source_dir"
# The release is named by its version and a digest of its files (names, modes, contents).
digest="$(tar -C "$source_dir" --no-recursion --mtime=@0 --owner=0 --group=0 --numeric-owner \
    --null -T "$files" -cf - | sha256sum | cut -c1-12)"
release_id="${version:-0}-${digest}"
release="$APP/releases/$release_id"
if [ ! -f "$R$release/.complete" ]; then
    rm -rf "${R:?}$release"
    mkdir -p "$R$release"
    chmod 0755 "$R$release"
    # The wheel is built from a still copy of the files (the build writes beside them).
    stage="$(mktemp -d)"
    tar -C "$source_dir" --no-recursion --null -T "$files" -cf - | tar -C "$stage" -xf -
    say "new release $release_id: building its wheel and virtual environment (a few minutes on a Pi)"
    # shellcheck disable=SC2086
    "$python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
        ${STUD_KIOSK_PIP_OPTIONS:-} --wheel-dir "$R$release/wheel" "$stage" ||
        die "could not build the wheel of $source_dir (see pip's message above)"
    wheel="$(find "$R$release/wheel" -maxdepth 1 -name 'stud_kiosk-*.whl' -print -quit)"
    [ -n "$wheel" ] || die "pip built no stud_kiosk wheel from $source_dir"
    # The environment gets no pip of its own: the system's pip installs into it.
    "$python" -m venv --without-pip "$R$release/venv"
    spec="$wheel"
    [ -z "$extras" ] || spec="${spec}[${extras}]"
    # shellcheck disable=SC2086
    "$python" -m pip --python "$R$release/venv/bin/python" install --quiet \
        --disable-pip-version-check ${STUD_KIOSK_PIP_OPTIONS:-} "$spec"
    for part in deploy docs README.md; do
        [ ! -e "$stage/$part" ] || cp -a "$stage/$part" "$R$release/"
    done
    # The firmware the docs tell a builder to build is the installed package's: the release's
    # hardware/ is a link to it (docs/hardware.md names .../current/hardware/firmware/build).
    site="$(cd "$R$release" && find venv/lib -maxdepth 3 -type d -path '*/site-packages/hardware' \
        -print -quit)"
    [ -n "$site" ] || die "the installed package has no hardware/ folder in $R$release/venv"
    ln -s "$site" "$R$release/hardware"
    echo "$release_id" >"$R$release/.complete"
    changed+=("$release/")
fi
rm -rf "$files" ${stage:+"$stage"}
trap - EXIT

# -- 5. settings (never overwritten: they are the owner's) -------------------------------------
put_file "$source_dir/deploy/env.example" "$ETC/env.example" 0644 || true
if [ ! -f "$R$ETC/env" ]; then
    put_file "$source_dir/deploy/env.example" "$ETC/env" 0640 root:stud || true
fi
put_text "$CONF" 0644 <<EOF || true
# Options of the last deploy/install.sh run, reused by the next one (an upgrade).
screen=$screen
desktop_user=$desktop_user
extras=$extras
EOF

# -- 6. systemd units, udev rules, log rotation ------------------------------------------------
for unit in stud-kiosk.service stud-kiosk-backup.service stud-kiosk-backup.timer; do
    if put_file "$source_dir/deploy/systemd/$unit" "$UNITS/$unit" 0644; then units_changed=1; fi
done
if [ "$screen" = cage ]; then
    if put_file "$source_dir/deploy/systemd/stud-kiosk-browser.service" \
        "$UNITS/stud-kiosk-browser.service" 0644; then units_changed=1; fi
elif [ -f "$R$UNITS/stud-kiosk-browser.service" ]; then
    system systemctl disable --now stud-kiosk-browser.service
    rm -f "$R$UNITS/stud-kiosk-browser.service"
    changed+=("$UNITS/stud-kiosk-browser.service (removed)")
    units_changed=1
fi
if [ ! -f "$R/etc/udev/rules.d/99-stud-kiosk.rules" ]; then
    put_file "$source_dir/deploy/99-stud-kiosk.rules" /etc/udev/rules.d/99-stud-kiosk.rules 0644 &&
        udev_changed=1
fi
put_file "$source_dir/deploy/logrotate" /etc/logrotate.d/stud-kiosk 0644 || true
journald_changed=0
if put_file "$source_dir/deploy/journald.conf" /etc/systemd/journald.conf.d/stud-kiosk.conf 0644; then
    journald_changed=1
fi

# -- 7. the dealer screen ----------------------------------------------------------------------
BEGIN_MARK="# >>> stud-kiosk: dealer page full screen >>>"
END_MARK="# <<< stud-kiosk <<<"
autostart=""
current_block=""
if [ -n "$desktop_user" ]; then
    home="$(awk -F: -v u="$desktop_user" '$1 == u { print $6 }' "$R/etc/passwd" 2>/dev/null || true)"
    home="${home:-/home/$desktop_user}"
    autostart="$home/.config/labwc/autostart"
    current_block="$(sed -n "/^$BEGIN_MARK\$/,/^$END_MARK\$/p" "$R$autostart" 2>/dev/null || true)"
fi
if [ "$screen" != labwc ] && [ -n "$current_block" ]; then
    # Another screen now: the desktop must not open a second browser.
    tmp="$(mktemp)"
    sed "/^$BEGIN_MARK\$/,/^$END_MARK\$/d" "$R$autostart" >"$tmp"
    put_file "$tmp" "$autostart" 0755 "$desktop_user:$desktop_user" || true
    rm -f "$tmp"
fi
if [ "$screen" = cage ]; then
    if [ -z "$root" ] && ! command -v raspi-config >/dev/null 2>&1; then
        say "raspi-config is missing: make the system start to the console (no desktop) by hand"
    else
        # Start to the console, without the desktop: the cage service owns the screen.
        system raspi-config nonint do_boot_behaviour B1
    fi
fi
if [ "$screen" = labwc ]; then
    port="$(sed -n 's/^STUD_KIOSK_PORT=\([0-9]*\).*/\1/p' "$R$ETC/env" | tail -n 1)"
    wanted_block="$BEGIN_MARK
STUD_KIOSK_PORT=${port:-8000} $APP/current/deploy/stud-kiosk-browser >/dev/null 2>&1 &
$END_MARK"
    if [ "$current_block" != "$wanted_block" ]; then
        mkdir -p "$R$home/.config/labwc"
        tmp="$(mktemp)"
        if [ -f "$R$autostart" ]; then
            sed "/^$BEGIN_MARK\$/,/^$END_MARK\$/d" "$R$autostart" >"$tmp"
        fi
        printf '%s\n' "$wanted_block" >>"$tmp"
        put_file "$tmp" "$autostart" 0755 "$desktop_user:$desktop_user" || true
        own "$desktop_user:$desktop_user" "$R$home/.config" "$R$home/.config/labwc"
        rm -f "$tmp"
    fi
    if [ -z "$root" ] && ! command -v raspi-config >/dev/null 2>&1; then
        say "raspi-config is missing: log in to the desktop automatically and turn screen blanking off by hand"
    else
        # Desktop with automatic login, and no screen blanking (raspi-config's 1 means "no").
        system raspi-config nonint do_boot_behaviour B4
        system raspi-config nonint do_blanking 1
    fi
fi

# -- 8. switch to the new release --------------------------------------------------------------
previous="$(readlink "$R$APP/current" 2>/dev/null || true)"
release_changed=0
if [ "$previous" != "$release" ]; then
    if [ -n "$previous" ]; then
        ln -sfn "$previous" "$R$APP/previous"
    fi
    ln -sfn "$release" "$R$APP/.current.new"
    mv -T "$R$APP/.current.new" "$R$APP/current"
    release_changed=1
    changed+=("$APP/current -> $release_id")
fi
# Keep the current and the previous release, remove older ones.
keep_previous="$(readlink "$R$APP/previous" 2>/dev/null || true)"
for old in "$R$APP"/releases/*/; do
    old="${old%/}"
    [ -d "$old" ] || continue
    case "${old#"$R"}" in
        "$release"|"$keep_previous") ;;
        *) rm -rf "$old"; say "removed old release ${old##*/}" ;;
    esac
done

# Before the server moves to new code: a backup, then the new code's database migrations.
as_stud() {
    # as_stud COMMAND...: run COMMAND as the kiosk's user with the kiosk's settings.
    # shellcheck disable=SC2016
    system runuser -u stud -- bash -c 'set -a; . "$0"; set +a; exec "$@"' "$ETC/env" "$@"
}
if [ "$release_changed" -eq 1 ] && [ -n "$previous" ]; then
    say "backing up the database before switching to the new release"
    as_stud "$release/deploy/stud-kiosk-backup" --tag pre-upgrade
fi
if [ "$release_changed" -eq 1 ] &&
    compgen -G "$R$release/venv/lib/python3*/site-packages/kiosk/commands/migrate.py" >/dev/null; then
    say "updating the database to the new version"
    [ -z "$previous" ] || system systemctl stop stud-kiosk.service
    as_stud "$release/venv/bin/stud-kiosk" migrate
fi

# -- 9. start -----------------------------------------------------------------------------------
[ "$units_changed" -eq 0 ] || system systemctl daemon-reload
[ "$journald_changed" -eq 0 ] || system systemctl try-restart systemd-journald.service
if [ "$udev_changed" -eq 1 ]; then
    system udevadm control --reload-rules
    system udevadm trigger --action=add --subsystem-match=tty
fi
if [ "$restart" -eq 1 ]; then
    enabled=(stud-kiosk.service stud-kiosk-backup.timer)
    [ "$screen" != cage ] || enabled+=(stud-kiosk-browser.service)
    if [ -z "$root" ] || [ ${#changed[@]} -gt 0 ]; then
        system systemctl enable --quiet "${enabled[@]}"
    fi
    if [ "$release_changed" -eq 1 ] || [ "$units_changed" -eq 1 ]; then
        system systemctl restart stud-kiosk.service
        system systemctl restart stud-kiosk-backup.timer
        [ "$screen" != cage ] || system systemctl restart stud-kiosk-browser.service
    elif [ -z "$root" ]; then
        systemctl start stud-kiosk.service stud-kiosk-backup.timer
    fi
fi

# -- summary -------------------------------------------------------------------------------------
if [ ${#changed[@]} -eq 0 ]; then
    say "everything was already in place: nothing changed (release $release_id)"
else
    say "release $release_id; changed:"
    printf '  %s\n' "${changed[@]}"
fi
host="$(hostname 2>/dev/null || echo raspberrypi)"
port="$(sed -n 's/^STUD_KIOSK_PORT=//p' "$R$ETC/env" 2>/dev/null | tail -n 1)"
say "dealer screen: http://localhost:${port:-8000}/dealer   TV: http://${host}.local:${port:-8000}/spectator"
