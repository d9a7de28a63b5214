#!/bin/bash
# The part of deploy/check-arm64.sh that runs inside the arm64 root, under emulation.
# Not for a real Pi (it installs a test venv and removes the companion at the end).
set -euo pipefail

SRC=/root/companion
PORT=${CHECK_PORT:-18093}
MODEL=${CHECK_MODEL:-pi5}
T0=${CHECK_T0:-$(date +%s)}
STEP_T=$(date +%s)
VENV=/opt/companion/.venv
DATA=/var/lib/companion
UNITS=/etc/systemd/system
step() {
    local now; now=$(date +%s)
    echo "== [$(date -u +%H:%M:%S)] +$((now - STEP_T)) s (total $((now - T0)) s) == $*"
    STEP_T=$now
}
fail() { step "FAIL: $*"; exit 1; }
check() { "$@" || fail "$*"; }

step "arm64 root: $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"), $(python3 --version)"
[ "$(uname -m)" = aarch64 ] || fail "not running as aarch64"

kiosk_opt=""
[ "${CHECK_KIOSK:-yes}" = yes ] && kiosk_opt="--kiosk"
step "deploy/install.sh --model $MODEL $kiosk_opt (systemd not running: units enabled, not started)"
"$SRC/deploy/install.sh" --model "$MODEL" $kiosk_opt

step "what the installer left"
check id companion
id companion
check test -x "$VENV/bin/python"
check grep -q "include-system-site-packages = true" "$VENV/pyvenv.cfg"
check test -f /etc/udev/rules.d/99-companion-tray.rules
check test "$(stat -c %U:%G:%a "$DATA")" = "companion:companion:750"
check test "$(systemctl is-enabled companion.service)" = enabled
for opt in NoNewPrivileges=yes ProtectSystem=strict "ReadWritePaths=$DATA" PrivateTmp=yes Restart=on-failure StandardOutput=journal; do
    check grep -qx "$opt" "$UNITS/companion.service"
done
"$VENV/bin/python" -m pip list 2>/dev/null | grep -iE "^(table-companion|opencv|numpy|gpiozero|lgpio|rpi-lgpio|rpi.gpio|pyserial|flask|qrcode) "
cat /opt/companion/installed.txt

step "systemd-analyze verify on the units"
verify="$UNITS/companion.service"
[ -f "$UNITS/companion-kiosk.service" ] && verify="$verify $UNITS/companion-kiosk.service"
# shellcheck disable=SC2086
check systemd-analyze verify $verify
echo "verified: $verify"

step "companion doctor (as the service's user)"
set +e
runuser -u companion -- env COMPANION_DATA=$DATA "$VENV/bin/companion" doctor --lang en
runuser -u companion -- env COMPANION_DATA=$DATA "$VENV/bin/companion" doctor --json >/tmp/doctor.json
set -e
check "$VENV/bin/python" - /tmp/doctor.json <<'EOF'
import json, sys
checks = {c["name"]: c for c in json.load(open(sys.argv[1]))}
assert checks["python"]["status"] == "ok", checks["python"]
assert checks["libraries"]["status"] == "ok", checks["libraries"]
# off a Pi the GPIO check lists the pin libraries: [pi] brought lgpio, [pi5] rpi-lgpio
assert "gpio" in checks and "lgpio" in checks["gpio"]["en"], checks.get("gpio")
print("doctor: python, libraries ok; gpio says:", checks["gpio"]["en"])
EOF

step "companion serve --demo on 127.0.0.1:$PORT, waiting for /healthz"
# setpriv execs the server itself (runuser would stay its parent and keep the signal)
(cd "$DATA" && exec setpriv --reuid=companion --regid=companion --init-groups -- \
    env COMPANION_DATA=$DATA HOME=$DATA "$VENV/bin/companion" serve --demo \
    --host 127.0.0.1 --port "$PORT" --data "$DATA") >/tmp/serve.log 2>&1 &
SERVE=$!
check "$VENV/bin/python" - "$PORT" "$SERVE" <<'EOF'
import json, os, sys, time, urllib.request
port, pid = sys.argv[1], int(sys.argv[2])
t0 = time.monotonic()
while True:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            body = r.read().decode()
            print(f"/healthz answered {r.status} after {time.monotonic() - t0:.1f} s: {body[:200]}")
            sys.exit(0 if r.status == 200 else 1)
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except OSError:
        print("the server died"); sys.exit(1)
    if time.monotonic() - t0 > 600:
        print("no answer in 600 s"); sys.exit(1)
    time.sleep(1)  # another process: nothing to wait on but its socket
EOF
kill -INT "$SERVE"
wait "$SERVE" || true
tail -n 5 /tmp/serve.log

step "a test venv (pytest, hypothesis) importing the installed package"
python3 -m venv --system-site-packages /root/testenv
/root/testenv/bin/python -m pip install -q --disable-pip-version-check pytest hypothesis
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
tsite=$(/root/testenv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$site" >"$tsite/companion-install.pth"
# the tests with their data (examples/) and pytest settings, but no source beside them
# (-L: some examples are links into the source's demo data)
rm -rf /root/check && mkdir -p /root/check && cp -r "$SRC/tests" "$SRC/pyproject.toml" /root/check/
cp -rL "$SRC/examples" /root/check/
cd /root/check
check /root/testenv/bin/python -c 'import companion, vision; assert companion.__file__.startswith("/opt/companion"), companion.__file__; print("tests import", companion.__file__)'

step "tests under emulation: rules, log, protocol, Pi parts, a vision read of 5 shared photos"
check env CI=true COMPANION_SHARED=/root/shared /root/testenv/bin/python -m pytest -q -p no:cacheprovider \
    tests/companion/games/peripeties/test_peripeties_rules.py tests/companion/games/wuxia/test_wuxia_rules.py tests/companion/games/espri/test_espri_rules.py \
    tests/companion/test_log.py tests/firmware_bridge/test_protocol.py tests/firmware_bridge/test_ports.py \
    tests/vision/test_sources.py tests/vision/test_read_five.py

step "a second install: an upgrade that keeps the data"
echo "a table nobody may lose" >"$DATA/keep-me.txt"
chown companion:companion "$DATA/keep-me.txt"
before=$(cd "$DATA" && find . -type f ! -name '*-wal' ! -name '*-shm' -exec sha256sum {} + | sort)
touch /tmp/before-upgrade
sleep 1  # mtimes have a one-second grain on some file systems
"$SRC/deploy/install.sh" --model "$MODEL" $kiosk_opt
check test "$site/companion/__init__.py" -nt /tmp/before-upgrade  # the code was installed again
after=$(cd "$DATA" && find . -type f ! -name '*-wal' ! -name '*-shm' -exec sha256sum {} + | sort)
check test "$before" = "$after"
echo "data kept: $(echo "$after" | wc -l) file(s) unchanged"
check "$VENV/bin/companion" --version

step "deploy/install.sh --uninstall: everything but the data"
"$SRC/deploy/install.sh" --uninstall
check test ! -e /opt/companion
check test ! -e "$UNITS/companion.service"
check test ! -e "$UNITS/companion-kiosk.service"
check test ! -e /etc/udev/rules.d/99-companion-tray.rules
if id companion >/dev/null 2>&1; then fail "the user companion is still there"; fi
check test -f "$DATA/keep-me.txt"
echo "left: $(ls "$DATA" | tr '\n' ' ')"

step "all checks passed inside the arm64 root"
