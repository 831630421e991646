"""The benches' own log directory for the simulated table, and its wipe (app_bench, loop_gap)."""
import os


def wipe(path):
    """Removes a log directory and the table's id and key kept beside it."""
    try:
        for n in os.listdir(path):
            os.remove(path + "/" + n)
        os.rmdir(path)
    except OSError:
        pass
    for side in (".id", ".key", ".key.paired"):
        try:
            os.remove(path + side)
        except OSError:
            pass
