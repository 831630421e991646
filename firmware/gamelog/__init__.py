"""Crash-safe append-only game log: table inputs and round snapshots on the flash filesystem."""
from gamelog.fmt import INPUT, SNAP, OUTCOME, Reader
from gamelog.log import Log, LogFull, GAP, SEG_MAX
