#!/bin/bash
# Prove the Raspberry Pi install on this (x86) machine: a Debian 12 "bookworm" arm64 root
# built with debootstrap, run under qemu-user-static, in which deploy/install.sh runs
# (all but starting systemd), then, under emulation: systemd-analyze verify on the units,
# `companion doctor`, `companion serve --demo` answering /healthz, a subset of the tests
# (rules, log, protocol, a vision read of 5 shared photos), a second install (upgrade,
# data kept) and --uninstall (all gone but the data).
#
#   sudo deploy/check-arm64.sh [--fresh] [--no-kiosk] [--model pi4|pi5] [--work DIR]
#
# Needs root (debootstrap, chroot, mounts), the Debian packages debootstrap and
# qemu-user-static (installed here if missing) and the Debian mirror. The base root is
# built once and kept as a tarball in the work folder (default /var/tmp/companion-arm64);
# --fresh builds it again. Every run unpacks a clean root from it, copies this checkout's
# files (those git knows, plus new ones not ignored) and the shared photos into it.
# Mounts are made in a private mount namespace, so nothing is left mounted on the host.
# The log, with the time of each step, goes to WORK/check-arm64.log.
set -euo pipefail

REPO=${CHECK_ARM64_REPO:-$(cd "$(dirname "$0")/.." && pwd)}
WORK=${COMPANION_ARM64_WORK:-/var/tmp/companion-arm64}
if [ -z "${CHECK_ARM64_REPO:-}" ]; then
    # run from a copy: bash reads a script as it goes, and this one runs for many minutes
    # (editing the checkout meanwhile must not change what runs)
    mkdir -p "$WORK"
    cp "$0" "$WORK/check-arm64.running.sh"
    CHECK_ARM64_REPO=$REPO exec bash "$WORK/check-arm64.running.sh" "$@"
fi
MIRROR=${COMPANION_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SHARED=${COMPANION_SHARED:-$REPO/../shared}
FRESH=no
KIOSK=yes
MODEL=pi5
PORT=${COMPANION_ARM64_PORT:-18093}

while [ $# -gt 0 ]; do
    case "$1" in
        --fresh) FRESH=yes ;;
        --no-kiosk) KIOSK=no ;;
        --model) MODEL=$2; shift ;;
        --work) WORK=$2; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" -eq 0 ] || { echo "check-arm64: run it as root (sudo $0)" >&2; exit 2; }

mkdir -p "$WORK"
LOG="$WORK/check-arm64.log"
exec > >(tee "$LOG") 2>&1
BASE_TAR="$WORK/base-bookworm-arm64.tar"
ROOT="$WORK/root"
T0=$(date +%s)
STEP_T=$T0
step() {  # print how long the previous step took, then the new step's title
    local now; now=$(date +%s)
    echo "== [$(date -u +%H:%M:%S)] +$((now - STEP_T)) s (total $((now - T0)) s) == $*"
    STEP_T=$now
}
fail() { step "FAIL: $*"; exit 1; }

step "host: $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"); checkout $REPO ($(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo 'no git'))"

# --- the host's tools ------------------------------------------------------------------
need=""
command -v debootstrap >/dev/null || need="$need debootstrap"
[ -x /usr/bin/qemu-aarch64-static ] || need="$need qemu-user-static"
command -v update-binfmts >/dev/null || need="$need binfmt-support"
if [ -n "$need" ]; then
    step "installing on the host:$need"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
if ! grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null; then
    update-binfmts --enable qemu-aarch64
fi
grep -qx enabled /proc/sys/fs/binfmt_misc/qemu-aarch64 || fail "cannot run arm64 programs (binfmt_misc qemu-aarch64)"
QEMU_INTERP=$(sed -n 's/^interpreter //p' /proc/sys/fs/binfmt_misc/qemu-aarch64)

add_qemu() {  # the interpreter the kernel looks for, at the same path inside the root
    mkdir -p "$1$(dirname "$QEMU_INTERP")" "$1/usr/bin"
    cp /usr/bin/qemu-aarch64-static "$1/usr/bin/"
    [ "$QEMU_INTERP" = /usr/bin/qemu-aarch64-static ] || ln -sf /usr/bin/qemu-aarch64-static "$1$QEMU_INTERP"
}

# --- the base root (built once) --------------------------------------------------------
if [ "$FRESH" = yes ] || [ ! -f "$BASE_TAR" ]; then
    step "debootstrap: Debian bookworm arm64 (minbase + systemd, udev, python3: what Raspberry Pi OS Lite has)"
    rm -rf "$WORK/base"
    debootstrap --foreign --arch=arm64 --variant=minbase \
        --include=systemd,systemd-sysv,udev,python3,ca-certificates bookworm "$WORK/base" "$MIRROR" >"$WORK/debootstrap.log"
    add_qemu "$WORK/base"
    step "debootstrap second stage, under emulation"
    chroot "$WORK/base" /debootstrap/debootstrap --second-stage >>"$WORK/debootstrap.log"
    echo "deb $MIRROR bookworm main" >"$WORK/base/etc/apt/sources.list"
    echo "deb $MIRROR bookworm-updates main" >>"$WORK/base/etc/apt/sources.list"
    echo "deb http://security.debian.org/debian-security bookworm-security main" >>"$WORK/base/etc/apt/sources.list"
    # the updates once, into the base: a Pi OS image is up to date, and under emulation
    # some of them (ca-certificates: thousands of small openssl runs) take minutes
    step "apt upgrade of the base, under emulation"
    cp /etc/resolv.conf "$WORK/base/etc/resolv.conf"
    chroot "$WORK/base" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
        'apt-get update -qq && apt-get -y -qq upgrade && apt-get clean' >>"$WORK/debootstrap.log"
    tar -C "$WORK/base" -cf "$BASE_TAR.tmp" .
    mv "$BASE_TAR.tmp" "$BASE_TAR"
    rm -rf "$WORK/base"
fi

step "a clean root from the base ($(du -h "$BASE_TAR" | cut -f1))"
rm -rf "$ROOT"
mkdir -p "$ROOT"
tar -C "$ROOT" -xf "$BASE_TAR"
add_qemu "$ROOT"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# a host behind a TLS-inspecting proxy trusts extra authorities: so does the root (pip
# inside checks PyPI's certificate against them); appended to the bundle directly, as
# update-ca-certificates would, which takes minutes under emulation
extra_ca=$(find /usr/local/share/ca-certificates -name '*.crt' 2>/dev/null | sort)
if [ -n "$extra_ca" ]; then
    mkdir -p "$ROOT/usr/local/share/ca-certificates"
    for crt in $extra_ca; do
        cp "$crt" "$ROOT/usr/local/share/ca-certificates/"
        cat "$crt" >>"$ROOT/etc/ssl/certs/ca-certificates.crt"
    done
    echo "trusted in the root as on the host: $(echo $extra_ca | wc -w) extra certificate authorities"
fi
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"  # apt starts no daemon in the root
chmod 0755 "$ROOT/usr/sbin/policy-rc.d"

step "copying the checkout and the shared photos into the root"
mkdir -p "$ROOT/root/companion"
if git -C "$REPO" rev-parse >/dev/null 2>&1; then
    (cd "$REPO" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf -) | tar -C "$ROOT/root/companion" -xf -
else
    tar -C "$REPO" --exclude=.git --exclude=.venv -cf - . | tar -C "$ROOT/root/companion" -xf -
fi
PHOTOS="$SHARED/data/tray-dice-photos"
[ -d "$PHOTOS" ] || fail "no shared photos at $PHOTOS (set COMPANION_SHARED)"
mkdir -p "$ROOT/root/shared/data/tray-dice-photos"
# all the labelled photos (a few MB): the test picks 5 of the held-aside split itself
cp "$PHOTOS"/*.jpg "$PHOTOS"/*.txt "$ROOT/root/shared/data/tray-dice-photos/"
[ -f "$PHOTOS/LICENSE" ] && cp "$PHOTOS/LICENSE" "$ROOT/root/shared/data/tray-dice-photos/"

# --- everything else runs inside the root, under emulation -----------------------------
step "into the arm64 root (private mount namespace)"
export CHECK_KIOSK=$KIOSK CHECK_MODEL=$MODEL CHECK_PORT=$PORT CHECK_T0=$T0
set +e
unshare --mount --propagation private /bin/bash -euc '
    ROOT=$1
    mount -t proc proc "$ROOT/proc"
    mount -t sysfs sysfs "$ROOT/sys"
    mount --rbind /dev "$ROOT/dev"
    mount -t tmpfs tmpfs "$ROOT/run"
    mount -t tmpfs tmpfs "$ROOT/tmp"
    exec chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
        CHECK_KIOSK="$CHECK_KIOSK" CHECK_MODEL="$CHECK_MODEL" CHECK_PORT="$CHECK_PORT" CHECK_T0="$CHECK_T0" \
        /bin/bash /root/companion/deploy/check-arm64-inside.sh
' _ "$ROOT"
rc=$?
set -e
[ $rc -eq 0 ] || fail "inside the arm64 root (exit $rc): see above"
step "PASS: deploy/check-arm64.sh, $(( $(date +%s) - T0 )) s in all (log: $LOG)"
