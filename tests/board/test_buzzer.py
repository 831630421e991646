"""board.buzzer: patterns played by step() on a fake clock into a fake PWM."""
from check import skip
import boardfakes as fk
from board import buzzer
from board.buzzer import Buzzer, ACCEPTED, REJECTED, PENALTY, UNO_WINDOW, ROUND_OVER, PATTERNS


def heard(bz, pwm, t0, t1):
    """What sounds from t0 to t1, sampled every ms: [(freq or 0, ms), ...] runs."""
    out = []
    t = t0
    while t < t1:
        bz.step(t)
        f = pwm.sounding()
        if out and out[-1][0] == f:
            out[-1][1] += 1
        else:
            out.append([f, 1])
        t += 1
    return [tuple(x) for x in out]


def test_starts_silent():
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    assert pwm.sounding() == 0 and not bz.busy
    assert bz.step(0) == -1


def test_play_starts_the_first_note_at_once():
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    pwm.calls = []
    bz.play(ACCEPTED, 1000)
    assert pwm.calls == [("freq", ACCEPTED[0][0]), ("duty", buzzer.DUTY)]
    assert bz.busy


def test_pattern_timing_rests_and_silence_after():
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    bz.play(PENALTY, 0)
    assert heard(bz, pwm, 0, 1000) == [(3400, 180), (0, 60), (2900, 180), (0, 60), (2400, 360),
                                       (0, 160)]
    assert not bz.busy and pwm.duty_u16() == 0


def test_every_pattern_plays_as_written():
    for name in PATTERNS:
        pat = PATTERNS[name]
        pwm = fk.PWM()
        bz = Buzzer(pwm)
        bz.play(pat, 5000)
        total = sum(ms for f, ms in pat)
        got = heard(bz, pwm, 5000, 5000 + total)
        want = []
        for f, ms in pat:  # merge neighbours with the same sound, as heard() does
            if want and want[-1][0] == f:
                want[-1] = (f, want[-1][1] + ms)
            else:
                want.append((f, ms))
        assert got == want, name


def rhythm(pat):
    """What is left of a pattern without its pitches: note lengths, rests negative, neighbouring
    notes merged only when they are the same pitch."""
    out = []
    for f, ms in pat:
        out.append(-ms if f == 0 else ms)
    return tuple(out)


def test_tones_sit_near_the_piezo_resonance():
    for name in PATTERNS:
        for f, ms in PATTERNS[name]:
            assert f == 0 or buzzer.LOW_HZ <= f <= buzzer.HIGH_HZ, (name, f)
            assert 30 <= ms <= 1000, (name, ms)


def test_patterns_are_told_apart_by_rhythm():
    names = sorted(PATTERNS)
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            assert rhythm(PATTERNS[names[i]]) != rhythm(PATTERNS[names[j]]), (names[i], names[j])


def test_rejected_is_the_most_distinct():
    def unbroken(pat):  # longest sound without a rest
        best = run = 0
        for f, ms in pat:
            run = run + ms if f else 0
            best = max(best, run)
        return best

    def jumps(pat):
        return sum(1 for i in range(1, len(pat)) if pat[i][0] and pat[i - 1][0]
                   and pat[i][0] != pat[i - 1][0])

    for name in PATTERNS:
        if PATTERNS[name] is not REJECTED:
            assert unbroken(REJECTED) > unbroken(PATTERNS[name]), name
            assert jumps(REJECTED) > jumps(PATTERNS[name]) + 2, name


def test_new_pattern_replaces_the_playing_one():
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    bz.play(ROUND_OVER, 0)
    heard(bz, pwm, 0, 200)
    bz.play(ACCEPTED, 200)
    assert heard(bz, pwm, 200, 400) == [(ACCEPTED[0][0], 60), (0, 140)]


def test_step_returns_time_to_next_change():
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    bz.play(PENALTY, 0)
    assert bz.step(0) == 180
    assert bz.step(100) == 80
    assert bz.step(180) == 60   # the rest began
    assert bz.step(250) == 180  # late call: the next note starts when seen, whole
    assert bz.step(2000) == 60   # very late: the next note (a rest) still plays whole
    assert bz.step(2060) == 360
    assert bz.step(2420) == -1


def test_stop_silences():
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    bz.play(PENALTY, 0)
    bz.stop()
    assert pwm.sounding() == 0 and not bz.busy and bz.step(10) == -1


def test_duty_sets_volume():
    pwm = fk.PWM()
    bz = Buzzer(pwm, duty=4096)
    bz.play(ACCEPTED, 0)
    assert pwm.duty_u16() == 4096


def test_zero_length_notes_are_skipped():
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    bz.play(((500, 0), (600, 10)), 0)
    assert pwm.freq() == 600 and bz.step(0) == 10


def test_ticks_wrap_around():
    top = 0x3FFFFFFF
    if fk.MICROPYTHON:
        import time
        top = time.ticks_add(0, -1)
    pwm = fk.PWM()
    bz = Buzzer(pwm)
    bz.play(((440, 100),), top - 50)
    assert bz.step(top) == 50
    assert bz.step(48) == 1
    assert bz.step(49) == -1


def test_step_does_not_allocate():
    if not fk.MICROPYTHON:
        return skip('MicroPython only (make test-mp)')
    import micropython
    pwm = fk.QuietPWM()
    bz = Buzzer(pwm)
    bz.play(ROUND_OVER, 0)
    micropython.heap_lock()
    try:
        t = 0
        while t < 1000:
            bz.step(t)
            t += 1
        bz.play(UNO_WINDOW, t)
        while t < 2000:
            bz.step(t)
            t += 1
    finally:
        micropython.heap_unlock()
    assert not bz.busy


def test_run_task_plays_and_replaces():
    if not fk.MICROPYTHON:
        return skip('MicroPython only (make test-mp): the asyncio layer uses asyncio.sleep_ms')
    import asyncio
    import time

    class Log(fk.PWM):
        def __init__(self):
            super().__init__()
            self.t = []

        def duty_u16(self, *v):
            if v:
                self.t.append((time.ticks_ms(), v[0]))
            return super().duty_u16(*v)

    pwm = Log()
    bz = Buzzer(pwm)

    async def main():
        task = asyncio.create_task(bz.run())
        await asyncio.sleep_ms(20)
        bz.play(REJECTED)
        await asyncio.sleep_ms(50)
        assert pwm.sounding() == REJECTED[0][0]
        bz.play(ACCEPTED)  # cuts the long pattern short
        assert pwm.sounding() == ACCEPTED[0][0]
        await asyncio.sleep_ms(120)
        assert not bz.busy and pwm.sounding() == 0
        task.cancel()

    asyncio.run(main())
    t_acc = pwm.t[-2][0]
    assert pwm.t[-2][1] == buzzer.DUTY and pwm.t[-1][1] == 0
    assert 55 <= time.ticks_diff(pwm.t[-1][0], t_acc) <= 80  # the 60 ms blip, within a tick


def test_a_note_the_pwm_refuses_leaves_no_tone_on():
    pwm = fk.PWM()
    pwm.bad = (2700,)
    bz = Buzzer(pwm)
    bz.play(REJECTED, 0)            # 2000 Hz sounding, then 2700 Hz refused by the port
    assert pwm.sounding() == 2000
    assert bz.step(90) == -1        # not raised: run() goes on
    assert pwm.sounding() == 0 and not bz.busy and bz.errors == 1
    bz.play(ACCEPTED, 100)          # the next tune plays
    assert pwm.sounding() == ACCEPTED[0][0]
