"""The tray protocol's host side as a state machine: messages and a clock in, actions out.

No pty, no thread, no sleep: every test drives :class:`Session` by hand with ``now``.
"""

from __future__ import annotations

from typing import Any

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.errors import ProtocolError, TrayError
from firmware_bridge.events import ButtonPressed, DiceSettled, MotionStarted, TrayConnected, TrayDisconnected
from firmware_bridge.session import (Action, Closed, Done, Emit, LinkSettings, Opened, Resend, Send, Session,
                                     command_key)

CFG = LinkSettings(heartbeat_interval=0.5, silence_timeout=2.0, handshake_timeout=1.0, hello_interval=0.25,
                   ack_timeout=0.25, max_retries=4)
TRAY_HELLO = p.Hello(1, 1, "0.2.0", "pico", 500, seq=1)


def sent(actions: list[Action]) -> list[p.Message]:
    return [a.message for a in actions if isinstance(a, (Send, Resend))]


def emitted(actions: list[Action]) -> list[Any]:
    return [a.event for a in actions if isinstance(a, Emit)]


def done(actions: list[Action]) -> list[Done]:
    return [a for a in actions if isinstance(a, Done)]


def connected(cfg: LinkSettings = CFG, now: float = 0.0) -> Session:
    s = Session(cfg, "9.9.9")
    s.open("/dev/ttyACM0", now)
    out = s.handle(TRAY_HELLO, now)
    assert isinstance(out[0], Opened) and s.phase == "open"
    s.tick(now)  # the first heartbeat
    return s


# -- handshake ----------------------------------------------------------------------------------
def test_opening_says_hello_and_repeats_it_until_the_deadline() -> None:
    s = Session(CFG, "9.9.9")
    (hello,) = sent(s.open("dev", 10.0))
    assert hello == p.Hello(1, 1, "9.9.9", "companion", 500, seq=0)
    assert s.tick(10.2) == []
    assert [type(m) for m in sent(s.tick(10.25))] == [p.Hello]
    assert s.tick(10.4) == []
    again = sent(s.tick(10.5))
    assert again == [p.Hello(1, 1, "9.9.9", "companion", 500, seq=2)]
    out = s.tick(11.0)
    assert out == [Closed("no-hello")]  # never heard: no "disconnected" for a tray never connected
    assert s.phase == "closed" and not s.opened and s.stats.connects == 0


def test_the_boot_hello_makes_us_say_hello_again_at_once() -> None:
    s = Session(CFG, "9.9.9")
    s.open("dev", 0.0)
    assert s.handle(p.Hello(1, 1, "0.2.0", "pico", 500, seq=0), 0.01) == []  # it booted, did not hear us
    assert [type(m) for m in sent(s.tick(0.01))] == [p.Hello]


def test_events_before_the_tray_heard_us_are_ignored() -> None:
    s = Session(CFG, "9.9.9")
    s.open("dev", 0.0)
    assert s.handle(p.Press(1, 5, seq=3), 0.01) == []
    assert s.stats.events == 0


def test_an_event_right_behind_the_hello_is_delivered_at_once() -> None:
    s = Session(CFG, "9.9.9")
    s.open("scripted", 0.0)
    out = s.receive(p.encode(TRAY_HELLO) + p.encode(p.Press(2, 5, seq=2)), 0.01)
    info = TrayConnected("scripted", "0.2.0", "pico", 1)
    assert out == [Opened(info), Emit(info), Send(p.Ack(2, seq=1)), Emit(ButtonPressed(2, 5))]
    assert s.stats.connects == 1 and s.info == info


def test_incompatible_firmware_is_reported_and_closed() -> None:
    s = Session(CFG, "9.9.9")
    s.open("dev", 0.0)
    out = s.handle(p.Hello(2, 3, "2.0", "pico", 500, seq=1), 0.01)
    assert out == [Closed("incompatible")]
    assert "protocol 2-3" in s.stats.last_error and "update" in s.stats.last_error
    assert not s.opened


def test_the_same_incompatibility_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    s = Session(CFG, "9.9.9")
    for attempt in range(3):  # the link retries forever; the log must not fill up
        s.open("dev", float(attempt))
        s.handle(p.Hello(2, 3, "2.0", "pico", 500, seq=1), float(attempt))
    assert [r.levelname for r in caplog.records if "protocol 2-3" in r.getMessage()] == ["ERROR"]


# -- events --------------------------------------------------------------------------------------
def test_every_copy_of_an_event_is_acknowledged_and_delivered_once() -> None:
    s = connected()
    first = s.handle(p.Settled(900, 120, seq=7), 0.1)
    assert sent(first) == [p.Ack(7, seq=2)] and emitted(first) == [DiceSettled(900, 120)]
    again = s.handle(p.Settled(900, 120, seq=7), 0.2)  # our ACK was lost: the tray resends
    assert sent(again) == [p.Ack(7, seq=3)] and emitted(again) == []
    assert s.stats.events == 1 and s.stats.duplicates == 1
    # the next event, even of the same kind, is new
    assert emitted(s.handle(p.Settled(2900, 80, seq=8), 0.3)) == [DiceSettled(2900, 80)]


def test_a_resend_across_a_reconnect_is_still_a_duplicate() -> None:
    s = connected()
    s.handle(p.Motion(100, seq=5), 0.1)
    assert emitted(s.close("unplugged")) == [TrayDisconnected("unplugged")]
    s.open("dev", 1.0)
    s.handle(TRAY_HELLO, 1.0)
    assert emitted(s.handle(p.Motion(100, seq=5), 1.1)) == []
    assert emitted(s.handle(p.Motion(300, seq=6), 1.2)) == [MotionStarted(300)]


@pytest.mark.parametrize("msg,reason", [
    (p.Unknown("FLY", ("1",), "unknown", seq=4), "unknown"),
    (p.Unknown("SETTLED", ("x",), "args", seq=4), "args"),
    (p.Unknown("HELLO", (), "non-ascii", seq=4), "bad"),
    (p.Light(3, seq=4), "unexpected"),  # a command sent to the host
])
def test_frames_the_host_cannot_act_on_are_naked(msg: Any, reason: str) -> None:
    s = connected()
    out = s.handle(msg, 0.1)
    assert out == [Send(p.Nak(4, reason, seq=2))]


def test_a_reboot_says_hello_again_and_restores_the_light() -> None:
    s = connected()
    (ticket,) = [s.submit(p.Light(7, 7, 7, 7))]
    assert sent(s.tick(0.1)) == [p.Light(7, 7, 7, 7, seq=2)]
    assert done(s.handle(p.Ack(2), 0.15)) == [Done("LIGHT", (ticket,), "acked")]
    out = s.handle(p.Hello(1, 1, "0.2.0", "pico", 500, seq=0), 0.5)  # watchdog reset
    assert [type(m) for m in sent(out)] == [p.Hello]
    assert s.queued() == [p.Light(7, 7, 7, 7)]
    assert sent(s.tick(0.5))[-1] == p.Light(7, 7, 7, 7, seq=5)
    assert emitted(out) == []  # a reboot is not an unplug


def test_greeting_again_needs_more_than_the_pause() -> None:
    cfg = LinkSettings(silence_timeout=1.5, heartbeat_interval=0.5, hello_interval=0.25, handshake_timeout=1.0)
    s = connected(cfg)  # said HELLO at 0.0; the pause is max(1 s, 2/3 of 1.5 s) = 1 s
    assert s.handle(p.Heartbeat(10, 0, 0), 1.0) == []
    assert [type(m) for m in sent(s.handle(p.Heartbeat(10, 0, 0), 1.0078125))] == [p.Hello]


def test_a_tray_without_a_session_is_greeted_again_at_most_once_a_second() -> None:
    s = connected()
    nohost = p.Heartbeat(10, 3, 0)
    assert s.handle(nohost, 0.5) == []  # we said hello 0.5 s ago
    out = s.handle(nohost, 1.5)
    assert [type(m) for m in sent(out)] == [p.Hello]
    assert s.handle(nohost, 2.0) == []
    assert s.stats.tray_bad_frames == 3


# -- the clock ---------------------------------------------------------------------------------
def test_heartbeats_every_interval_carry_the_bad_frames() -> None:
    s = Session(CFG, "9.9.9")
    s.open("dev", 0.0)
    s.receive(b"$garbage*0000\n" + p.encode(TRAY_HELLO), 0.0)
    (hb,) = sent(s.tick(0.0))
    assert isinstance(hb, p.Heartbeat) and hb.bad_frames == 1 and hb.session == 1 and hb.uptime_ms == 0
    assert s.tick(0.4) == []
    assert [type(m) for m in sent(s.tick(0.5))] == [p.Heartbeat]


def test_silence_closes_the_session() -> None:
    s = connected()
    s.handle(p.Heartbeat(1, 0, 1), 1.0)
    assert not any(isinstance(a, Closed) for a in s.tick(2.9))
    assert s.phase == "open"
    out = s.tick(3.01)
    assert out == [Closed("silent"), Emit(TrayDisconnected("silent"))]
    assert s.stats.disconnects == 1 and s.tick(4.0) == []


def test_silence_means_more_than_the_timeout() -> None:
    s = connected()
    s.handle(p.Heartbeat(1, 0, 1), 1.0)
    assert not any(isinstance(a, Closed) for a in s.tick(3.0))  # exactly 2 s (exact in binary): still there
    assert s.tick(3.0078125)[0] == Closed("silent")


def test_a_slow_tray_heartbeat_stretches_the_silence_timeout() -> None:
    s = Session(CFG, "9.9.9")
    s.open("dev", 0.0)
    s.handle(p.Hello(1, 1, "0.2.0", "pico", 1500, seq=1), 0.0)  # HB every 1.5 s: wait 4.5 s
    assert not any(isinstance(a, Closed) for a in s.tick(4.4))
    assert s.tick(4.6)[0] == Closed("silent")


# -- commands --------------------------------------------------------------------------------
def test_a_command_is_resent_until_max_retries_sends_then_given_up() -> None:
    """Exactly ``max_retries`` sends in all (kills the ``>=`` -> ``>`` mutant), same frame each time."""
    s = connected()
    ticket = s.submit(p.Status("fast"))
    frames: list[p.Message] = []
    attempts: list[int] = []
    t = 0.25  # steps of 0.25 s are exact in binary
    outcome: list[Done] = []
    while not outcome and t < 10:
        out = s.tick(t)
        frames += [m for m in sent(out) if isinstance(m, p.Status)]
        attempts += [a.attempt for a in out if isinstance(a, Resend)]
        outcome = done(out)
        s.handle(p.Heartbeat(1, 0, 1), t)  # the tray is alive, it just does not acknowledge
        t += CFG.ack_timeout
    assert outcome == [Done("STATUS", (ticket,), "dropped")]
    assert len(frames) == CFG.max_retries
    assert len(set(frames)) == 1  # the same number every time: the tray drops copies
    assert attempts == list(range(2, CFG.max_retries + 1))
    assert s.stats.commands_dropped == 1 and s.stats.commands_acked == 0


def test_resends_wait_for_the_ack_timeout() -> None:
    s = connected()
    s.submit(p.Light(1))
    (light,) = sent(s.tick(0.25))
    assert isinstance(light, p.Light)
    assert s.tick(0.25 + CFG.ack_timeout - 0.01) == []
    out = s.tick(0.25 + CFG.ack_timeout)  # exact in binary: 0.5
    assert [a for a in out if isinstance(a, Resend)] == [Resend(light, 2)]


def test_only_the_ack_of_the_command_in_flight_counts() -> None:
    s = connected()
    ticket = s.submit(p.Light(1))
    (light,) = sent(s.tick(0.1))
    assert s.handle(p.Ack(light.seq + 1), 0.12) == []
    assert done(s.handle(p.Ack(light.seq), 0.13)) == [Done("LIGHT", (ticket,), "acked")]
    assert s.handle(p.Ack(light.seq), 0.14) == []  # a late copy
    assert s.stats.commands_acked == 1


def test_a_nak_refuses_the_command_and_the_next_one_goes() -> None:
    s = connected()
    bad = s.submit(p.Setting("settle_ms", 5))
    s.submit(p.Status("slow"))
    (setting,) = sent(s.tick(0.1))
    assert setting == p.Setting("settle_ms", 5, seq=2)  # one at a time, oldest first
    out = s.handle(p.Nak(2, "range"), 0.12)
    assert out == [Done("SET settle_ms", (bad,), "refused")] and s.stats.commands_refused == 1
    assert sent(s.tick(0.13)) == [p.Status("slow", seq=3)]


def test_a_newer_command_of_the_same_kind_replaces_the_queued_one() -> None:
    s = connected()
    a = s.submit(p.Light(10))
    b = s.submit(p.Light(20))
    s.submit(p.Setting("debounce_ms", 30))
    assert s.queued() == [p.Light(20), p.Setting("debounce_ms", 30)]
    (light,) = sent(s.tick(0.1))
    assert light == p.Light(20, seq=2)
    assert done(s.handle(p.Ack(2), 0.11)) == [Done("LIGHT", (a, b), "acked")]


def test_a_command_in_flight_at_a_reboot_is_sent_again_with_the_newer_ones_tickets() -> None:
    s = connected()
    a = s.submit(p.Light(10))
    s.tick(0.1)  # LIGHT 10 in flight
    b = s.submit(p.Light(30))  # queued behind it
    s.handle(p.Hello(1, 1, "0.2.0", "pico", 500, seq=0), 0.2)  # reboot: the one in flight is abandoned
    assert s.queued() == [p.Light(30)]
    (light,) = [m for m in sent(s.tick(0.2)) if isinstance(m, p.Light)]
    assert light.level == 30
    assert done(s.handle(p.Ack(light.seq), 0.21)) == [Done("LIGHT", (b, a), "acked")]


def test_commands_survive_an_unplug_and_the_latest_of_each_kind_is_restored() -> None:
    s = connected()
    s.submit(p.Light(10))
    s.submit(p.Status("double"))
    (light,) = sent(s.tick(0.1))
    s.handle(p.Ack(light.seq), 0.11)
    s.tick(0.12)  # STATUS in flight
    s.close("unplugged")
    s.submit(p.Light(42))
    s.open("dev", 1.0)
    s.handle(TRAY_HELLO, 1.0)
    # the STATUS that was in flight, then the newest LIGHT
    assert s.queued() == [p.Status("double"), p.Light(42)]
    assert s.stats.connects == 2 and s.stats.disconnects == 1


def test_closing_twice_or_a_session_never_open_says_nothing() -> None:
    s = Session(CFG, "9.9.9")
    assert s.close("stopped") == []
    s.open("dev", 0.0)
    assert s.close("stopped") == []  # only a connected tray gets "disconnected"
    s = connected()
    assert s.close("stopped") == [Emit(TrayDisconnected("stopped"))]
    assert s.close("stopped") == []


def test_sequence_numbers_wrap_to_one() -> None:
    s = connected()
    s.tx_seq = 0xFFFF
    a = sent(s.handle(p.Motion(1, seq=9), 0.1))
    b = sent(s.handle(p.Motion(2, seq=10), 0.1))
    assert (a[0].seq, b[0].seq) == (0xFFFF, 1)


@pytest.mark.parametrize("bad,error", [
    ("LIGHT 1 2 3 4", TrayError), (p.Motion(5), TrayError), (p.Light(300), ProtocolError),
    (p.Status("disco"), ProtocolError), (p.Setting("colour", 1), TrayError),
])
def test_bad_commands_are_refused_before_queueing(bad: Any, error: type) -> None:
    s = connected()
    with pytest.raises(error):
        s.submit(bad)
    assert s.queued() == [] and s.desired == {}


def test_command_keys() -> None:
    assert [command_key(c) for c in (p.Light(1), p.Status("on"), p.Setting("settle_ms", 90))] == [
        "LIGHT", "STATUS", "SET settle_ms"]
