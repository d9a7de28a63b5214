# The tray's firmware logic: buttons, motion and settle detection, LED ring, status LED,
# heartbeat and the protocol, for MicroPython on a Raspberry Pi Pico and for CPython
# (tests, emulator) alike. Everything that touches hardware goes through a "board":
#
#   board.name                      short word sent in HELLO ("pico", "sim")
#   board.ticks_ms() -> int         a millisecond clock (may wrap)
#   board.ticks_diff(a, b) -> int   a - b, wrap-safe
#   board.read() -> bytes           bytes received from the host so far (never blocks)
#   board.write(data)               send bytes to the host (drops them if nobody listens)
#   board.buttons() -> [(id, pressed)]  raw, undebounced levels; pressed is True/False
#   board.motion_pulses() -> int    motion sensor edges since the last call
#   board.set_ring(level, r, g, b)  the LED ring lighting the tray
#   board.set_status(on)            the status LED
#
# firmware_bridge/firmware/board_pico.py is the Pico's board, firmware_bridge/simboard.py
# the simulated one. Protocol: hardware.md.

try:
    from . import wire  # CPython: firmware_bridge.firmware package
except ImportError:
    import wire  # type: ignore[no-redef]  # MicroPython: files copied flat to the board

# Types are given in comments, which MicroPython ignores (it has no ``typing``); mypy
# checks them, and takes "if TYPE_CHECKING:" as true whatever the variable says.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

    from .board import Board

    Item = Tuple[str, Sequence[int]]  # a reliable event: (NAME, args)

VERSION = "0.1.0"
PROTO_MIN = 1
PROTO_MAX = 1

# Status LED patterns: (on, duration_ms) steps, repeated.
PATTERNS = {
    "off": ((0, 1000),),
    "on": ((1, 1000),),
    "slow": ((1, 500), (0, 500)),
    "fast": ((1, 125), (0, 125)),
    "double": ((1, 100), (0, 100), (1, 100), (0, 700)),
    "nohost": ((1, 50), (0, 1950)),  # shown by the firmware itself while no host talks to it
}
SETTINGS = {"settle_ms": (20, 60000), "debounce_ms": (1, 1000)}
DEFAULT_LIGHT = (160, 255, 255, 255)  # level, r, g, b: white, so the camera works before the host says
EVENTS = ("MOTION", "SETTLED", "PRESS", "RELEASE")
MAX_QUEUE = 16


def _u32(x):
    # type: (int) -> int
    return x & 0xFFFFFFFF


class Tray:
    """The firmware. Call :meth:`tick` in a loop; it returns how many ms it may sleep."""

    def __init__(self, board, settle_ms=800, debounce_ms=20, hb_ms=500,
                 host_timeout_ms=2000, ack_ms=250, retries=8):
        # type: (Board, int, int, int, int, int, int) -> None
        self.board = board
        self.settle_ms = settle_ms
        self.debounce_ms = debounce_ms
        self.hb_ms = hb_ms
        self.host_timeout_ms = host_timeout_ms
        self.ack_ms = ack_ms
        self.retries = retries
        self.reader = wire.LineReader()
        self.on_delivery = None  # type: Optional[Callable[[str, Sequence[int], bool], None]]
        # ^ optional hook(name, args, acked) for the emulator
        now = board.ticks_ms()
        self.boot_ms = now
        self.seq = 0
        self.host = False  # a host said HELLO and has been heard from recently
        self.host_seen = now
        self.host_hb_ms = 500
        self.proto = PROTO_MAX
        self.last_cmd_seq = -1
        self.queue = []  # type: List[Item]  # reliable events waiting: (name, args)
        self.inflight = None  # type: Optional[List[Any]]  # [seq, name, args, frame, sent_at, tries]
        self.sent_events = 0
        self.dropped_events = 0
        self.moving = False
        self.motion_start = now
        self.last_motion = now
        self.buttons = {}  # type: Dict[int, List[Any]]  # id -> [stable, candidate, since, pressed_at]
        for bid, pressed in board.buttons():
            self.buttons[bid] = [pressed, pressed, now, now]
        self.pattern = "on"  # what the host asked for
        self.shown = None  # type: Optional[str]  # pattern currently on the LED
        self.pattern_start = now
        self.led = None  # type: Optional[int]
        self.light = DEFAULT_LIGHT
        board.set_ring(*self.light)
        self.next_hb = now
        self._send("HELLO", (PROTO_MIN, PROTO_MAX, VERSION, board.name, hb_ms))  # "I have booted"

    # -- output ---------------------------------------------------------------------
    def _send(self, name, args=()):
        # type: (str, Sequence[object]) -> Tuple[int, bytes]
        seq = self.seq
        self.seq = seq + 1 if seq < 0xFFFF else 1  # 0 only ever numbers the boot HELLO
        data = wire.frame(seq, name, args)
        self.board.write(data)
        return seq, data

    def _event(self, name, args):
        # type: (str, Sequence[int]) -> None
        if not self.host:
            self._send(name, args)  # nobody acknowledges: say it once, for a terminal
            return
        if len(self.queue) >= MAX_QUEUE:
            self._done(self.queue.pop(0), False)
        self.queue.append((name, args))

    def _done(self, item, acked):
        # type: (Item, bool) -> None
        if acked:
            self.sent_events += 1
        else:
            self.dropped_events += 1
        if self.on_delivery is not None:
            self.on_delivery(item[0], item[1], acked)

    # -- the loop ---------------------------------------------------------------------
    def tick(self):
        # type: () -> int
        b = self.board
        now = b.ticks_ms()
        data = b.read()
        if data:
            for msg in self.reader.feed(data):
                self._receive(msg, now)
        self._poll_buttons(now)
        self._poll_motion(now)
        self._check_host(now)
        self._reliable(now)
        if b.ticks_diff(now, self.next_hb) >= 0:
            self._send("HB", (_u32(b.ticks_diff(now, self.boot_ms)), self.reader.bad, 1 if self.host else 0))
            self.next_hb = now + self.hb_ms
        return self._status_led(now, self._wait(now))

    def _wait(self, now):
        # type: (int) -> int
        d = self.board.ticks_diff
        wait = min(100, d(self.next_hb, now))
        if self.inflight is not None:
            wait = min(wait, self.ack_ms - d(now, self.inflight[4]))
        elif self.queue:
            wait = 0
        if self.moving:
            wait = min(wait, self.settle_ms - d(now, self.last_motion))
        for st in self.buttons.values():
            if st[0] != st[1]:
                wait = min(wait, self.debounce_ms - d(now, st[2]))
        if self.host:
            wait = min(wait, self.host_timeout_ms - d(now, self.host_seen) + 1)
        return wait

    # -- input from the host -------------------------------------------------------
    def _receive(self, msg, now):
        # type: (Tuple[int, str, List[str]], int) -> None
        seq, name, args = msg
        self.host_seen = now
        if name == "HELLO":
            try:
                hmin, hmax, hb = int(args[0]), int(args[1]), int(args[4])
            except (ValueError, IndexError):
                self._send("NAK", (seq, "args"))
                return
            best = min(hmax, PROTO_MAX)
            self.proto = best if best >= max(hmin, PROTO_MIN) else PROTO_MIN
            # A new numbering of commands starts; events still waiting (at most
            # host_timeout_ms old: without a host they are not queued) go on being resent.
            self.host = True
            self.host_hb_ms = hb
            self.last_cmd_seq = -1
            self._send("HELLO", (PROTO_MIN, PROTO_MAX, VERSION, self.board.name, self.hb_ms))
        elif name == "HB":
            pass
        elif name == "ACK" or name == "NAK":
            fl = self.inflight
            if fl is not None and args and args[0] == str(fl[0]):
                self.inflight = None
                self._done((fl[1], fl[2]), name == "ACK")
        elif name in ("LIGHT", "STATUS", "SET"):
            problem = None if seq == self.last_cmd_seq else self._command(name, args)
            self.last_cmd_seq = seq
            if problem:
                self._send("NAK", (seq, problem))
            else:
                self._send("ACK", (seq,))
        elif name in EVENTS:
            self._send("NAK", (seq, "unexpected"))
        else:
            self._send("NAK", (seq, "unknown"))

    def _command(self, name, args):
        # type: (str, List[str]) -> Optional[str]
        """Apply a command; return None, or the reason to refuse it."""
        try:
            if name == "LIGHT":
                vals = [int(a) for a in args[:4]]
                if len(vals) != 4 or min(vals) < 0 or max(vals) > 255:
                    return "args"
                self.light = (vals[0], vals[1], vals[2], vals[3])
                self.board.set_ring(*vals)
            elif name == "STATUS":
                if not args or args[0] not in PATTERNS or args[0] == "nohost":
                    return "args"
                self.pattern = args[0]
            else:
                key, value = args[0], int(args[1])
                if key not in SETTINGS:
                    return "key"
                lo, hi = SETTINGS[key]
                if not lo <= value <= hi:
                    return "range"
                setattr(self, key, value)
        except (ValueError, IndexError):
            return "args"
        return None

    def _check_host(self, now):
        # type: (int) -> None
        if self.host and self.board.ticks_diff(now, self.host_seen) > self.host_timeout_ms:
            self.host = False  # host gone: stop waiting for acknowledgements
            if self.inflight is not None:
                self._done((self.inflight[1], self.inflight[2]), False)
                self.inflight = None
            while self.queue:
                self._done(self.queue.pop(0), False)

    def _reliable(self, now):
        # type: (int) -> None
        fl = self.inflight
        if fl is None:
            if self.queue:
                name, args = self.queue.pop(0)
                seq, data = self._send(name, args)
                self.inflight = [seq, name, args, data, now, 1]
            return
        if self.board.ticks_diff(now, fl[4]) >= self.ack_ms:
            if fl[5] >= self.retries:
                self.inflight = None
                self._done((fl[1], fl[2]), False)
                self._reliable(now)
            else:
                self.board.write(fl[3])  # same frame, same number: the host drops duplicates
                fl[4] = now
                fl[5] += 1

    # -- sensors ----------------------------------------------------------------------
    def _poll_buttons(self, now):
        # type: (int) -> None
        d = self.board.ticks_diff
        for bid, pressed in self.board.buttons():
            st = self.buttons.get(bid)
            if st is None:
                st = self.buttons[bid] = [pressed, pressed, now, now]
            if pressed != st[1]:
                st[1] = pressed
                st[2] = now
            elif pressed != st[0] and d(now, st[2]) >= self.debounce_ms:
                st[0] = pressed
                if pressed:
                    st[3] = st[2]
                    self._event("PRESS", (bid, _u32(st[2])))
                else:
                    self._event("RELEASE", (bid, _u32(st[2]), max(0, d(st[2], st[3]))))

    def _poll_motion(self, now):
        # type: (int) -> None
        d = self.board.ticks_diff
        if self.board.motion_pulses() > 0:
            self.last_motion = now
            if not self.moving:
                self.moving = True
                self.motion_start = now
                self._event("MOTION", (_u32(now),))
        elif self.moving and d(now, self.last_motion) >= self.settle_ms:
            self.moving = False
            self._event("SETTLED", (_u32(now), max(0, d(self.last_motion, self.motion_start))))

    def _status_led(self, now, wait):
        # type: (int, int) -> int
        want = self.pattern if self.host else "nohost"
        if want != self.shown:
            self.shown = want
            self.pattern_start = now
        steps = PATTERNS[want]
        period = 0
        for _, ms in steps:
            period += ms
        phase = self.board.ticks_diff(now, self.pattern_start) % period
        for on, ms in steps:
            if phase < ms:
                break
            phase -= ms
        if on != self.led:
            self.led = on
            self.board.set_status(bool(on))
        if len(steps) > 1:
            wait = min(wait, ms - phase)
        return max(0, wait)
