#!/bin/sh
# Install (or upgrade, or remove) the table companion on a Raspberry Pi.
#
#   git clone <repository> companion && sudo companion/deploy/install.sh
#
# What it does, every time it runs (a second run upgrades and keeps the data):
#   1. apt: Python's venv, the libraries OpenCV needs, and from Raspberry Pi OS's own
#      archive picamera2 and the GPIO libraries (lgpio; RPi.GPIO on a Pi 4). A package the
#      archive does not have (plain Debian has no picamera2) is reported and skipped.
#   2. a system user (companion) in the groups video, gpio and dialout (those that exist);
#   3. a venv in /opt/companion/.venv made --system-site-packages (so apt's picamera2 and
#      lgpio are seen) and `pip install .[pi]` (plus [pi4] or [pi5], by the board model)
#      into it, from this checkout;
#   4. the data folder /var/lib/companion (owned by companion; never removed);
#   5. the udev rule for the tray (/dev/companion-tray);
#   6. the hardened systemd unit (and, with --kiosk, the kiosk screen unit), enabled and
#      (re)started. Without a running systemd (a chroot, an image being built) the units
#      are enabled and start at the next boot.
#
# Options:
#   --kiosk          also show the table page full-screen on a screen plugged into the Pi
#   --no-start       install and enable, but do not start or restart anything now
#   --uninstall      remove everything but the data folder (give the same --prefix/--data)
#   --model M        pi4, pi5 or other (default: read /proc/device-tree/model)
#   --prefix DIR     where the venv and docs go (default /opt/companion)
#   --data DIR       the table's data folder (default /var/lib/companion)
#   --user NAME      the service's user (default companion)
#   --port N         the port tablets open (default 8080)
#   --no-apt         skip step 1 (the packages are known to be there)
set -eu

PREFIX=/opt/companion
DATA=/var/lib/companion
SVC_USER=companion
PORT=8080
MODEL=auto
KIOSK=no
START=yes
APT=yes
ACTION=install

say() { printf '%s\n' "companion-install: $*"; }
die() { printf '%s\n' "companion-install: error: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --kiosk) KIOSK=yes ;;
        --no-start) START=no ;;
        --no-apt) APT=no ;;
        --uninstall) ACTION=uninstall ;;
        --model) [ $# -ge 2 ] || die "--model needs a value"; MODEL=$2; shift ;;
        --prefix) [ $# -ge 2 ] || die "--prefix needs a value"; PREFIX=$2; shift ;;
        --data) [ $# -ge 2 ] || die "--data needs a value"; DATA=$2; shift ;;
        --user) [ $# -ge 2 ] || die "--user needs a value"; SVC_USER=$2; shift ;;
        --port) [ $# -ge 2 ] || die "--port needs a value"; PORT=$2; shift ;;
        -h|--help) sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

case "$PORT" in ''|*[!0-9]*) die "--port must be a number" ;; esac
case "$SVC_USER" in ''|*[!a-z0-9_-]*) die "--user: lower-case letters, digits, - and _ only" ;; esac
case "$PREFIX$DATA" in *[!A-Za-z0-9/._-]*) die "--prefix/--data: plain paths only (letters, digits, / . _ -)" ;; esac
case "$PREFIX" in /*) ;; *) die "--prefix must be an absolute path" ;; esac
case "$DATA" in /*) ;; *) die "--data must be an absolute path" ;; esac
[ "$(id -u)" -eq 0 ] || die "run it as root: sudo $0 $*"

SRC=$(cd "$(dirname "$0")/.." && pwd)
UNIT_DIR=/etc/systemd/system
UDEV_RULE=/etc/udev/rules.d/99-companion-tray.rules
KIOSK_USER="$SVC_USER-kiosk"
KIOSK_HOME="/var/lib/$KIOSK_USER"
VENV="$PREFIX/.venv"

systemd_running() { [ -d /run/systemd/system ]; }

# --- remove ------------------------------------------------------------------------
if [ "$ACTION" = uninstall ]; then
    for unit in companion-kiosk companion; do
        if [ -f "$UNIT_DIR/$unit.service" ]; then
            if systemd_running; then
                systemctl disable --now "$unit.service" >/dev/null 2>&1 || true
            else
                systemctl disable "$unit.service" >/dev/null 2>&1 || true
            fi
            rm -f "$UNIT_DIR/$unit.service"
            say "removed the $unit unit"
        fi
    done
    systemd_running && systemctl daemon-reload
    if [ -f "$UDEV_RULE" ]; then
        rm -f "$UDEV_RULE"
        [ -S /run/udev/control ] && udevadm control --reload || true
        say "removed the udev rule"
    fi
    if [ -d "$PREFIX" ]; then
        rm -rf "$PREFIX"
        say "removed $PREFIX (venv and docs)"
    fi
    for u in "$KIOSK_USER" "$SVC_USER"; do
        if id "$u" >/dev/null 2>&1; then
            userdel "$u" 2>/dev/null || die "cannot remove the user $u (still logged in or running?)"
            getent group "$u" >/dev/null 2>&1 && groupdel "$u" 2>/dev/null || true
            say "removed the user $u"
        fi
    done
    rm -rf "$KIOSK_HOME"
    if [ -d "$DATA" ]; then
        say "kept the data in $DATA (the table log, photos, settings); remove it with: sudo rm -r $DATA"
    fi
    say "uninstalled"
    exit 0
fi

# --- install or upgrade --------------------------------------------------------------
[ -f "$SRC/pyproject.toml" ] && [ -d "$SRC/companion" ] || die "run it from a checkout: $SRC has no pyproject.toml"

if [ "$MODEL" = auto ]; then
    board=$(tr -d '\000' </proc/device-tree/model 2>/dev/null || true)
    case "$board" in
        "Raspberry Pi 5"*) MODEL=pi5 ;;
        "Raspberry Pi"*) MODEL=pi4 ;;  # Pi 4, 3, 400, Zero 2: RPi.GPIO works on them
        *) MODEL=other ;;
    esac
    say "board: ${board:-not a Raspberry Pi} -> $MODEL"
fi
case "$MODEL" in
    pi4) EXTRAS="pi,pi4" ;;
    pi5) EXTRAS="pi,pi5" ;;
    other) EXTRAS="pi" ;;
    *) die "--model: pi4, pi5 or other" ;;
esac

# 1. system packages
apt_has() { apt-cache policy "$1" 2>/dev/null | grep -q 'Candidate: [^(]'; }
if [ "$APT" = yes ]; then
    export DEBIAN_FRONTEND=noninteractive
    say "apt: updating the package lists"
    apt-get update -qq
    want="python3 python3-venv ca-certificates libglib2.0-0 libgomp1 udev"
    # Raspberry Pi OS's archive: the camera through libcamera, the GPIO libraries
    pi_pkgs="python3-picamera2 python3-libcamera python3-lgpio"
    [ "$MODEL" = pi4 ] && pi_pkgs="$pi_pkgs python3-rpi.gpio"
    [ "$KIOSK" = yes ] && want="$want cage"
    missing=""
    for pkg in $pi_pkgs; do
        if apt_has "$pkg"; then want="$want $pkg"; else missing="$missing $pkg"; fi
    done
    if [ "$KIOSK" = yes ]; then
        if apt_has chromium-browser; then want="$want chromium-browser"; else want="$want chromium"; fi
    fi
    say "apt: installing$(printf ' %s' $want | sed 's/  */ /g')"
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $want >/dev/null
    [ -n "$missing" ] && say "apt: not in this system's archive, skipped:$missing (Raspberry Pi OS has them; without picamera2 use a USB camera)"
fi
command -v python3 >/dev/null || die "python3 is missing (apt install python3 python3-venv)"

# 2. the service's user
if ! id "$SVC_USER" >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin \
        --comment "table companion" "$SVC_USER"
    say "created the system user $SVC_USER"
fi
GROUPS_FOUND=""
for g in video gpio dialout; do
    if getent group "$g" >/dev/null 2>&1; then
        usermod -a -G "$g" "$SVC_USER"
        GROUPS_FOUND="$GROUPS_FOUND $g"
    fi
done
GROUPS_FOUND=${GROUPS_FOUND# }

# 3. the venv and the package
mkdir -p "$PREFIX"
if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    say "the venv's Python is gone (system Python upgraded?): making a new venv"
    rm -rf "$VENV"
fi
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv --system-site-packages "$VENV"
    say "created the venv $VENV (with the system site packages)"
else
    say "upgrading the venv $VENV"
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
"$VENV/bin/python" -m pip install -q --upgrade pip
# --upgrade: a second run installs this checkout again (new code, same data)
"$VENV/bin/python" -m pip install -q --upgrade "$SRC[$EXTRAS]"
"$VENV/bin/python" -m compileall -q "$VENV/lib" >/dev/null 2>&1 || true  # the unit cannot write .pyc files
mkdir -p "$PREFIX/docs" "$PREFIX/bin"
for doc in docs/raspberry-pi.md hardware.md README.md; do
    [ -f "$SRC/$doc" ] && install -m 0644 "$SRC/$doc" "$PREFIX/docs/"
done
install -m 0755 "$SRC/deploy/wait-healthz.py" "$PREFIX/bin/wait-healthz.py"
version=$("$VENV/bin/python" -m companion --version 2>/dev/null || echo "companion ?")
commit=$(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo "no git")
printf 'installed=%s\nversion=%s\ncommit=%s\nmodel=%s\nextras=%s\nprefix=%s\ndata=%s\nuser=%s\nport=%s\n' \
    "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$version" "$commit" "$MODEL" "$EXTRAS" "$PREFIX" "$DATA" "$SVC_USER" "$PORT" \
    >"$PREFIX/installed.txt"
say "installed $version ($commit) with the extras [$EXTRAS]"

# 4. the data folder: created once, never emptied
if [ -d "$DATA" ]; then
    say "keeping the data in $DATA"
else
    mkdir -p "$DATA"
    say "created the data folder $DATA"
fi
chown -R "$SVC_USER:$SVC_USER" "$DATA"
chmod 0750 "$DATA"

# 5. the tray's udev rule
mkdir -p "$(dirname "$UDEV_RULE")"
install -m 0644 "$SRC/deploy/99-companion-tray.rules" "$UDEV_RULE"
if [ -S /run/udev/control ]; then
    udevadm control --reload && udevadm trigger --subsystem-match=tty || true
fi

# 6. the units
render() {  # template -> unit, with this installation's values
    sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@DATA@|$DATA|g" -e "s|@USER@|$SVC_USER|g" \
        -e "s|@PORT@|$PORT|g" -e "s|@GROUPS@|$GROUPS_FOUND|g" -e "s|@CHROMIUM@|$CHROMIUM|g" "$1" >"$2.tmp"
    chmod 0644 "$2.tmp"
    mv "$2.tmp" "$2"
}
mkdir -p "$UNIT_DIR"
CHROMIUM=/usr/bin/chromium
render "$SRC/deploy/companion.service" "$UNIT_DIR/companion.service"
UNITS="companion.service"
if [ "$KIOSK" = yes ] || [ -f "$UNIT_DIR/companion-kiosk.service" ]; then
    CHROMIUM=$(command -v chromium-browser || command -v chromium || echo /usr/bin/chromium)
    if ! id "$KIOSK_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$KIOSK_HOME" --create-home --shell /usr/sbin/nologin \
            --comment "table companion kiosk screen" "$KIOSK_USER"
        say "created the system user $KIOSK_USER (the kiosk screen)"
    fi
    for g in video render input; do
        getent group "$g" >/dev/null 2>&1 && usermod -a -G "$g" "$KIOSK_USER"
    done
    mkdir -p "$KIOSK_HOME"
    chown "$KIOSK_USER:$KIOSK_USER" "$KIOSK_HOME"
    render "$SRC/deploy/companion-kiosk.service" "$UNIT_DIR/companion-kiosk.service"
    UNITS="$UNITS companion-kiosk.service"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
    for u in $UNITS; do
        systemd-analyze verify "$UNIT_DIR/$u" || say "warning: systemd-analyze verify complains about $u (above)"
    done
fi
# shellcheck disable=SC2086
if systemd_running; then
    systemctl daemon-reload
    systemctl enable $UNITS >/dev/null 2>&1
    if [ "$START" = yes ]; then
        systemctl restart $UNITS
        say "started: $UNITS (journalctl -u companion -f shows the address and the table PIN)"
    else
        say "enabled, not started (--no-start): sudo systemctl start companion"
    fi
else
    systemctl enable $UNITS >/dev/null 2>&1 || die "systemctl enable failed"
    say "no running systemd here: $UNITS enabled, they start at the next boot"
fi
say "done. Check with: sudo systemctl stop companion; sudo -u $SVC_USER $VENV/bin/companion doctor --data $DATA; sudo systemctl start companion"
