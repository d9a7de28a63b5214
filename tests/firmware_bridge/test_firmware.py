"""The reference firmware, run under CPython on simulated pins with a hand-driven clock."""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.firmware import tray as fw
from firmware_bridge.simboard import ManualClock, SimBoard

FIRMWARE = Path(fw.__file__).parent


class Bench:
    """A firmware on a simulated board, with a decoder on its output."""

    def __init__(self, **settings: int) -> None:
        self.clock = ManualClock()
        self.board = SimBoard(self.clock)
        self.tray = fw.Tray(self.board, **settings)
        self.decoder = p.Decoder()
        self.host_seq = 100

    def out(self) -> list:
        return self.decoder.feed(self.board.take_tx())

    def send(self, msg: p.Message) -> int:
        seq = self.host_seq
        self.host_seq += 1
        self.board.rx += p.encode(msg.__class__(*msg.wire_args(), seq=seq))
        return seq

    def run(self, ms: int, step: int = 5) -> list:
        got: list = []
        for _ in range(0, ms, step):
            self.tray.tick()
            got += self.out()
            self.clock.advance(step)
        self.tray.tick()
        return got + self.out()

    def connect(self) -> p.Hello:
        self.out()
        self.send(p.Hello(1, 1, "test", "host", 500))
        got = [m for m in self.run(5) if isinstance(m, p.Hello)]
        assert len(got) == 1
        return got[0]

    def without_hb(self, msgs: list) -> list:
        return [m for m in msgs if not isinstance(m, p.Heartbeat)]


def test_boot_says_hello_numbered_zero_and_lights_the_tray() -> None:
    b = Bench()
    first = b.out()[0]
    assert first == p.Hello(1, 1, fw.VERSION, "sim", 500, seq=0)
    assert b.board.ring == fw.DEFAULT_LIGHT


def test_handshake_reply_is_numbered_above_zero_and_turns_the_led_on() -> None:
    b = Bench()
    b.run(50)
    assert not b.board.status or b.board.status_changes <= 1  # the "nohost" blip, off most of the time
    hello = b.connect()
    assert hello.seq > 0 and hello.proto_max == fw.PROTO_MAX
    b.run(20)
    assert b.tray.host and b.board.status  # "on" is the default pattern once a host talks


def test_heartbeat_period_and_bad_frame_count() -> None:
    b = Bench(hb_ms=200)
    b.board.rx += b"$garbage*0000\n"
    hbs = [m for m in b.run(1000) if isinstance(m, p.Heartbeat)]
    assert len(hbs) in (5, 6)
    assert hbs[-1].bad_frames == 1
    assert [h.uptime_ms for h in hbs[:3]] == [0, 200, 400]
    assert all(h.session == 0 for h in hbs)  # nobody said HELLO


def test_motion_then_settled_after_the_settle_time() -> None:
    b = Bench(settle_ms=300)
    b.connect()
    b.board.pulses = 1
    got = b.without_hb(b.run(5))
    assert [type(m) for m in got] == [p.Motion]
    b.send(p.Ack(got[0].seq))
    for _ in range(10):  # keeps moving for 500 ms: no new MOTION, no SETTLED
        b.board.pulses += 2
        assert b.without_hb(b.run(50)) == []
    got = b.without_hb(b.run(240))  # the last pulse was 50 ms ago: 290 ms of quiet
    assert got == []  # not yet: 300 ms of quiet needed
    got = b.without_hb(b.run(20))
    assert [type(m) for m in got] == [p.Settled]
    assert got[0].moving_ms == 455  # first pulse 5 ms before the loop, last one 450 ms into it


def test_settle_time_is_a_setting() -> None:
    b = Bench(settle_ms=800)
    b.connect()
    seq = b.send(p.Setting("settle_ms", 100))
    assert p.Ack(seq, seq=0) in [p.Ack(m.ref) for m in b.run(5) if isinstance(m, p.Ack)]
    b.board.pulses = 1
    m = b.without_hb(b.run(5))[0]
    b.send(p.Ack(m.seq))
    assert [type(x) for x in b.without_hb(b.run(110))] == [p.Settled]


@pytest.mark.parametrize("key,value,reason", [("settle_ms", 5, "range"), ("colour", 1, "key")])
def test_bad_settings_are_refused(key: str, value: int, reason: str) -> None:
    b = Bench()
    b.connect()
    seq = b.send(p.Setting(key, value))
    naks = [m for m in b.run(5) if isinstance(m, p.Nak)]
    assert naks and naks[0].ref == seq and naks[0].reason == reason
    assert b.tray.settle_ms == 800


def test_buttons_are_debounced() -> None:
    b = Bench(debounce_ms=20)
    b.connect()
    for _ in range(5):  # contact bounce: never stable for 20 ms
        b.board.pressed[1] = True
        b.run(5)
        b.board.pressed[1] = False
        b.run(5)
    assert b.without_hb(b.out()) == []
    b.board.pressed[1] = True
    got = b.without_hb(b.run(30))
    assert [type(m) for m in got] == [p.Press] and got[0].button == 1
    b.send(p.Ack(got[0].seq))
    b.run(200)
    b.board.pressed[1] = False
    got = b.without_hb(b.run(30))
    assert [type(m) for m in got] == [p.Release]
    assert got[0].held_ms == 230  # from the press edge to the release edge


def test_events_are_resent_until_acknowledged_then_given_up() -> None:
    b = Bench(ack_ms=100, retries=3, host_timeout_ms=10_000)
    b.connect()
    b.board.pressed[2] = True
    got = [m for m in b.without_hb(b.run(600)) if isinstance(m, p.Press)]
    assert len(got) == 3 and len({m.seq for m in got}) == 1  # same frame, same number
    assert b.tray.dropped_events == 1


def test_events_wait_their_turn_and_keep_their_order() -> None:
    b = Bench(ack_ms=100, host_timeout_ms=10_000)
    b.connect()
    b.board.pressed[1] = True
    b.board.pulses = 1
    got = b.without_hb(b.run(40))
    assert [type(m) for m in got] == [p.Motion]  # the press waits for the ACK
    b.send(p.Ack(got[0].seq))
    got = b.without_hb(b.run(10))
    assert [type(m) for m in got] == [p.Press]
    b.send(p.Ack(got[0].seq))
    assert b.without_hb(b.run(300)) == []
    assert b.tray.sent_events == 2


def test_without_a_host_events_are_said_once() -> None:
    b = Bench(ack_ms=50)
    b.out()
    b.board.pulses = 1
    got = b.without_hb(b.run(500))
    assert [type(m) for m in got] == [p.Motion]


def test_host_silence_stops_retries_and_shows_nohost() -> None:
    b = Bench(host_timeout_ms=300, ack_ms=100, retries=50)
    b.connect()
    b.board.pressed[1] = True
    b.run(400)
    assert not b.tray.host and b.tray.dropped_events == 1
    assert b.tray.shown == "nohost"
    assert b.without_hb(b.run(500)) == []  # no more resends


def test_commands_light_status_and_duplicates() -> None:
    b = Bench()
    b.connect()
    seq = b.send(p.Light(90, 10, 20, 30))
    acks = [m.ref for m in b.run(5) if isinstance(m, p.Ack)]
    assert acks == [seq] and b.board.ring == (90, 10, 20, 30)
    b.board.ring = (0, 0, 0, 0)
    b.board.rx += p.encode(p.Light(90, 10, 20, 30, seq=seq))  # our ACK was lost: the host resends
    acks = [m.ref for m in b.run(5) if isinstance(m, p.Ack)]
    assert acks == [seq] and b.board.ring == (0, 0, 0, 0)  # acknowledged again, not applied twice
    b.send(p.Status("fast"))
    b.run(5)
    changes = b.board.status_changes
    b.run(1000)
    assert 7 <= b.board.status_changes - changes <= 9  # 4 Hz: 8 changes a second


def test_unknown_and_unexpected_frames_are_refused_with_nak() -> None:
    b = Bench()
    b.connect()
    body = b"200 WOBBLE 1"
    b.board.rx += b"$" + body + b"*%04X\n" % p.crc16(body)
    b.board.rx += p.encode(p.Motion(5, seq=201))
    b.board.rx += p.encode(p.Light(1, seq=202))[:-6] + b"0000\n"  # bad checksum: silence
    naks = [(m.ref, m.reason) for m in b.run(5) if isinstance(m, p.Nak)]
    assert naks == [(200, "unknown"), (201, "unexpected")]


def test_a_second_host_hello_restarts_command_numbers_but_keeps_events() -> None:
    b = Bench(ack_ms=100, host_timeout_ms=10_000)
    b.connect()
    seq = b.send(p.Light(1, 2, 3, 4))
    b.run(5)
    b.board.pressed[1] = True
    first = [m for m in b.run(30) if isinstance(m, p.Press)]
    b.connect()  # the host lost track (it missed our boot HELLO, or it restarted)
    again = [m for m in b.run(100) if isinstance(m, p.Press)]
    assert again == first  # the event in flight is still resent, same frame
    b.board.ring = (0, 0, 0, 0)
    b.board.rx += p.encode(p.Light(9, 9, 9, 9, seq=seq))  # same number as before: a new command now
    b.run(5)
    assert b.board.ring == (9, 9, 9, 9)


def test_heartbeat_says_whether_a_host_session_exists() -> None:
    b = Bench(hb_ms=100, host_timeout_ms=300)
    assert {m.session for m in b.run(150) if isinstance(m, p.Heartbeat)} == {0}
    b.connect()
    assert {m.session for m in b.run(150) if isinstance(m, p.Heartbeat)} == {1}
    assert {m.session for m in b.run(600) if isinstance(m, p.Heartbeat)} >= {0}  # host gone quiet


def test_sequence_numbers_skip_zero_when_they_wrap() -> None:
    b = Bench(hb_ms=100)
    b.out()
    b.tray.seq = 0xFFFF
    seqs = [m.seq for m in b.run(250)]
    assert seqs == [65535, 1, 2]  # 0 is only ever the boot HELLO's


# -- MicroPython compatibility -------------------------------------------------------------
MICROPYTHON_MODULES = {"sys", "time", "select", "machine", "micropython", "neopixel", "wire", "tray", "board_pico"}


@pytest.mark.parametrize("name", ["wire.py", "tray.py", "board_pico.py", "main.py"])
def test_firmware_files_use_only_what_micropython_has(name: str) -> None:
    tree = ast.parse((FIRMWARE / name).read_text(), name)
    # "if TYPE_CHECKING:" blocks are for mypy only: the module sets TYPE_CHECKING = False
    # (MicroPython has no typing module to import it from), so the board never runs them
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            assert any(isinstance(a, ast.Assign) and [getattr(t, "id", None) for t in a.targets] == ["TYPE_CHECKING"]
                       and isinstance(a.value, ast.Constant) and a.value.value is False for a in tree.body), name
            skipped |= {id(n) for n in ast.walk(node)} - {id(node)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            assert {a.name.split(".")[0] for a in node.names} <= MICROPYTHON_MODULES, ast.dump(node)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            assert node.module in MICROPYTHON_MODULES, node.module
        assert not isinstance(node, (ast.AnnAssign, ast.AsyncFunctionDef)), name
        if isinstance(node, ast.arguments):
            assert all(a.annotation is None for a in node.args + node.kwonlyargs), name
        if isinstance(node, ast.FunctionDef):
            assert node.returns is None, name


def _fake_micropython(monkeypatch: pytest.MonkeyPatch) -> dict:
    """Just enough of ``machine``, ``micropython`` and ``neopixel`` to run board_pico.py."""
    made: dict = {"pins": {}, "irq": None, "ring": None}

    class Pin:
        IN, OUT, PULL_UP, PULL_DOWN, IRQ_RISING, IRQ_FALLING = 0, 1, 2, 3, 4, 8

        def __init__(self, ident, mode=None, pull=None):
            self.ident, self.mode, self.pull, self.v = ident, mode, pull, 1 if pull == 2 else 0
            made["pins"][ident] = self

        def value(self, v=None):
            if v is None:
                return self.v
            self.v = v

        def irq(self, trigger, handler):
            made["irq"] = (self, trigger, handler)

    class NeoPixel:
        def __init__(self, pin, n):
            self.pin, self.n, self.colour, self.written = pin, n, None, 0
            made["ring"] = self

        def fill(self, c):
            self.colour = c

        def write(self):
            self.written += 1

    class Poll:
        def register(self, *a):
            pass

        def poll(self, ms=0):
            return []

    machine = types.SimpleNamespace(Pin=Pin, disable_irq=lambda: 0, enable_irq=lambda s: None)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=lambda c: made.setdefault("kbd", c)))
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=NeoPixel))
    monkeypatch.setitem(sys.modules, "select", types.SimpleNamespace(poll=Poll, POLLIN=1))
    monkeypatch.syspath_prepend(str(FIRMWARE))
    monkeypatch.delitem(sys.modules, "board_pico", raising=False)
    return made


def test_pico_board_wiring(monkeypatch: pytest.MonkeyPatch) -> None:
    made = _fake_micropython(monkeypatch)
    stdin = types.SimpleNamespace(buffer=None)
    import board_pico  # type: ignore[import-not-found]

    monkeypatch.setattr(board_pico.sys, "stdin", stdin, raising=False)
    monkeypatch.setattr(board_pico, "time", types.SimpleNamespace(ticks_ms=lambda: 5, ticks_diff=lambda a, b: a - b))
    board = board_pico.PicoBoard()
    assert made["kbd"] == -1  # Ctrl-C bytes on the line must not stop the firmware
    pins = made["pins"]
    assert pins[15].mode == 0 and made["irq"][0] is pins[15]
    assert pins[14].pull == pins[13].pull == 2  # buttons: pull-ups, pressed is low
    assert board.buttons() == [(1, False), (2, False)]
    pins[13].v = 0
    assert board.buttons() == [(1, False), (2, True)]
    made["irq"][2](pins[15])
    made["irq"][2](pins[15])
    assert board.motion_pulses() == 2 and board.motion_pulses() == 0
    board.set_ring(128, 255, 100, 0)
    assert made["ring"].colour == (128, 50, 0) and made["ring"].n == board_pico.RING_LEDS
    board.set_status(True)
    assert pins[17].v == 1 and pins["LED"].v == 1
    # the firmware runs on it
    t = fw.Tray(board)
    assert t.light == fw.DEFAULT_LIGHT
    sys.modules.pop("board_pico", None)


def test_main_py_compiles() -> None:
    compile((FIRMWARE / "main.py").read_text(), "main.py", "exec")
