"""`unotable replay`: narration, --state, --json, errors; and the same record under MicroPython."""
import json
import os
import subprocess
import sys

import pytest

from unotable.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = [os.path.join(ROOT, "examples", n)
            for n in ("round-2p.jsonl", "round-4p.jsonl", "round-10p.jsonl")]
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_narrates_the_round_and_the_final_state(capsys):
    code, out, err = run(capsys, "replay", EXAMPLES[1])
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "rules: official"
    assert "seat 1 joins" in lines[1]
    assert any("ROUND OVER: seat" in l for l in lines)
    assert any(l.startswith("after ") and "round over" in l for l in lines)
    assert any("REJECTED" in l for l in lines)


def test_replay_state_is_the_state_json(capsys):
    code, out, _ = run(capsys, "replay", "--state", EXAMPLES[0])
    s = json.loads(out)
    assert code == 0 and s["phase"] == "round_over" and len(s["seats"]) == 2
    assert sum(len(x["hand"]) for x in s["seats"]) + s["shoe"] + s["pile"] == 108


def test_replay_json_is_a_game_record_that_replays_to_itself(capsys, tmp_path):
    code, out, _ = run(capsys, "replay", "--json", EXAMPLES[2])
    assert code == 0
    path = tmp_path / "night.jsonl"
    path.write_text(out)
    code, again, _ = run(capsys, "replay", "--json", str(path))
    assert again == out
    lines = [json.loads(l) for l in out.splitlines()]
    assert lines[0]["record"] == 1
    assert all("seq" in l for l in lines[1:])


def test_settings_override_from_the_command_line(capsys):
    code, out, _ = run(capsys, "replay", "--state", "--set", "w4=enforce", EXAMPLES[0])
    assert json.loads(out)["settings"]["w4"] == "enforce"


def test_errors_say_what_is_wrong(capsys, tmp_path):
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"in":"seat","seat":1}\n{"in":"pad","card":"Q9"}\n')
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and "line 2" in err and "not a card" in err
    code, _, err = run(capsys, "replay", "--set", "hand_size=99", EXAMPLES[0])
    assert code == 2 and "hand_size must be a whole number from 1 to 15" in err
    code, out, _ = run(capsys, "replay", "--state", "--set", "preset=house", EXAMPLES[0])
    assert code == 0 and json.loads(out)["settings"]["stacking"] == "on"   # presets too


@pytest.mark.skipif(not os.path.exists(MICROPYTHON), reason="micropython not in this venv")
@pytest.mark.parametrize("example", EXAMPLES)
def test_micropython_decides_exactly_what_cpython_decides(capsys, example):
    code = ("import sys\nfrom uno.record import Replay\n"
            "for l in Replay().record(open(sys.argv[1])):\n    print(l)\n")
    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "firmware") + ":.frozen")
    mp = subprocess.run([MICROPYTHON, "-X", "heapsize=512k", "-c", code, example],
                        capture_output=True, text=True, env=env, timeout=60)
    assert mp.returncode == 0, mp.stderr
    _, out, _ = run(capsys, "replay", "--json", example)
    assert mp.stdout == out


def test_the_deployable_set_builds_into_a_new_folder(tmp_path):
    from unotable.build import build
    out = tmp_path / "a" / "b"
    built = build(str(out))
    assert (out / "main.py").exists() and (out / "uno" / "table.mpy").exists()
    assert not (out / "manifest.mpy").exists() and len(built) > 20
