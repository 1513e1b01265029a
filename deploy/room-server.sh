#!/bin/bash
# Set up a card room's server: PostgreSQL for the hands of every table, Redis for the live
# screens, and a nightly copy of the database. Run it once on the machine that will be the
# room's server (Raspberry Pi OS Bookworm or Debian 12, on the same network as the tables):
#
#   sudo ./deploy/room-server.sh [--keep-days N]
#
# Running it again changes nothing (the passwords are made once, kept in
# /etc/stud-room/secrets) and prints again the two lines every table's kiosk needs in its
# /etc/stud-kiosk/env. Other options:
#   --root DIR   lay the files down under DIR instead of /; apt, psql and systemctl are only
#                printed (for tests)
set -euo pipefail

say() { echo "stud-room server: $*"; }
die() { echo "stud-room server: $*" >&2; exit 2; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root=""
keep_days=14
while [ $# -gt 0 ]; do
    case "$1" in
        --root) root="${2:?--root needs a folder}"; shift 2 ;;
        --keep-days) keep_days="${2:?--keep-days needs a number}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (allowed: --keep-days N, --root DIR)" ;;
    esac
done
[[ "$keep_days" =~ ^[1-9][0-9]*$ ]] || die "--keep-days '$keep_days': a whole number of days, 1 or more"
if [ -n "$root" ]; then
    mkdir -p "$root"
    root="$(cd "$root" && pwd)"
elif [ "$(id -u)" -ne 0 ]; then
    die "run it as root: sudo $0"
fi
R="$root"
DATABASE=studroom
ROLE=stud
changed=0

system() {
    if [ -n "$root" ]; then say "would run: $*"; else "$@"; fi
}

put() {
    # put DEST MODE < text: write $R/DEST when its content differs.
    local dest="$R$1" tmp
    tmp="$(mktemp)"
    cat >"$tmp"
    if [ -f "$dest" ] && cmp -s "$tmp" "$dest"; then
        rm -f "$tmp"
        return 1
    fi
    install -D -m "$2" "$tmp" "$dest"
    rm -f "$tmp"
    say "wrote $1"
    changed=1
    return 0
}

# -- packages -------------------------------------------------------------------------------------
missing=()
for pkg in postgresql redis-server; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    system apt-get update -qq
    system env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# -- passwords, made once ---------------------------------------------------------------------
secrets="$R/etc/stud-room/secrets"
if [ ! -f "$secrets" ]; then
    install -d -m 0700 "$R/etc/stud-room"
    (
        umask 077
        printf 'DB_PASSWORD=%s\nREDIS_PASSWORD=%s\n' \
            "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" \
            "$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')" >"$secrets"
    )
    say "made the passwords (kept in /etc/stud-room/secrets)"
    changed=1
fi
db_password="$(sed -n 's/^DB_PASSWORD=//p' "$secrets")"
redis_password="$(sed -n 's/^REDIS_PASSWORD=//p' "$secrets")"
[[ "$db_password" =~ ^[0-9a-f]{32}$ && "$redis_password" =~ ^[0-9a-f]{32}$ ]] ||
    die "/etc/stud-room/secrets is damaged: remove it and run this again (then update every kiosk)"

# -- PostgreSQL: listen on the network, one database, one role with a password ----------------------
cluster="$(find "$R/etc/postgresql" -mindepth 2 -maxdepth 2 -type d -name main 2>/dev/null |
    sort -V | tail -n 1)"
cluster="${cluster#"$R"}"
if [ -z "$cluster" ]; then
    [ -n "$root" ] || die "no PostgreSQL cluster in /etc/postgresql/*/main (is postgresql installed?)"
    cluster=/etc/postgresql/15/main
fi
pg_changed=0
put "$cluster/conf.d/stud-room.conf" 0644 <<'EOF' && pg_changed=1
# The card room's kiosks reach the database over the network (deploy/room-server.sh).
listen_addresses = '*'
EOF
hba="$R$cluster/pg_hba.conf"
if ! grep -q "^host $DATABASE $ROLE samenet scram-sha-256" "$hba" 2>/dev/null; then
    mkdir -p "$(dirname "$hba")"
    printf '# stud-room: the kiosks of the card room, from the local network only\nhost %s %s samenet scram-sha-256\n' \
        "$DATABASE" "$ROLE" >>"$hba"
    say "allowed the kiosks of the local network in $cluster/pg_hba.conf"
    pg_changed=1
    changed=1
fi
[ "$pg_changed" -eq 0 ] || system systemctl restart postgresql
sql="DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE LOGIN PASSWORD '$db_password';
  ELSE
    ALTER ROLE $ROLE LOGIN PASSWORD '$db_password';
  END IF;
END \$\$;"
system runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -c "$sql"
if [ -n "$root" ]; then
    say "would create the database $DATABASE owned by $ROLE if missing"
elif [ "$(runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'")" != 1 ]; then
    runuser -u postgres -- createdb -O "$ROLE" "$DATABASE"
    say "created the database $DATABASE"
fi

# -- Redis: on the network, with a password, nothing kept on disk (it only carries live screens) ---
redis_changed=0
put /etc/redis/stud-room.conf 0640 <<EOF && redis_changed=1
# The card room's message queue (deploy/room-server.sh): live screens only, nothing to keep.
bind * -::*
protected-mode yes
requirepass $redis_password
save ""
appendonly no
EOF
own_redis() { if [ -z "$root" ]; then chown root:redis "$@"; fi; }
own_redis "$R/etc/redis/stud-room.conf"
if ! grep -qx 'include /etc/redis/stud-room.conf' "$R/etc/redis/redis.conf" 2>/dev/null; then
    mkdir -p "$R/etc/redis"
    printf '\n# The card room (deploy/room-server.sh); last, so that it overrides the above.\ninclude /etc/redis/stud-room.conf\n' \
        >>"$R/etc/redis/redis.conf"
    redis_changed=1
    changed=1
fi
[ "$redis_changed" -eq 0 ] || system systemctl restart redis-server

# -- nightly copy of the database -------------------------------------------------------------
install -d -m 0755 "$R/usr/local/sbin"
if ! cmp -s "$here/stud-room-backup" "$R/usr/local/sbin/stud-room-backup"; then
    install -m 0755 "$here/stud-room-backup" "$R/usr/local/sbin/stud-room-backup"
    changed=1
fi
units=0
put /etc/systemd/system/stud-room-backup.service 0644 <<EOF && units=1
# One copy of the card room's database (pg_dump), keeping the last days.
[Unit]
Description=stud-room database backup
After=postgresql.service

[Service]
Type=oneshot
User=postgres
Environment=STUD_ROOM_DATABASE=$DATABASE
Environment=STUD_ROOM_BACKUP_DIR=/var/backups/stud-room
Environment=STUD_ROOM_BACKUP_KEEP_DAYS=$keep_days
ExecStart=/usr/local/sbin/stud-room-backup
Nice=10
NoNewPrivileges=yes
PrivateTmp=yes
ProtectSystem=strict
ReadWritePaths=/var/backups/stud-room
ProtectHome=yes
EOF
put /etc/systemd/system/stud-room-backup.timer 0644 <<'EOF' && units=1
# Every night at 05:00 (or at the next boot, if the server was off at that time).
[Unit]
Description=nightly stud-room database backup

[Timer]
OnCalendar=*-*-* 05:00:00
RandomizedDelaySec=10min
Persistent=true

[Install]
WantedBy=timers.target
EOF
if [ ! -d "$R/var/backups/stud-room" ]; then
    install -d -m 0750 "$R/var/backups/stud-room"
    if [ -z "$root" ]; then chown postgres:postgres "$R/var/backups/stud-room"; fi
    changed=1
fi
if [ "$units" -eq 1 ]; then
    system systemctl daemon-reload
    system systemctl enable --now stud-room-backup.timer
fi

# -- what the kiosks need --------------------------------------------------------------------------
host="$(hostname 2>/dev/null || echo room-server).local"
[ "$changed" -eq 1 ] || say "everything was already in place: nothing changed"
cat <<EOF

Put these two lines in /etc/stud-kiosk/env on every table's kiosk (each with its own
STUD_KIOSK_TABLE_ID), then: sudo systemctl restart stud-kiosk

STUD_KIOSK_DATABASE_URL=postgresql+psycopg://$ROLE:$db_password@$host/$DATABASE
STUD_KIOSK_MESSAGE_QUEUE=redis://:$redis_password@$host:6379/0

EOF
