"""The host tool of the UNO referee table (`unotable`, unotable.cli)."""
import os as _os
import signal as _signal
import sys as _sys


def _quiet_ctrl_c(signum, frame):
    # Ctrl-C while Python still loads the tool, before cli.main can catch it: its one line
    # and exit 130, as always, not a traceback through the imports
    _os.write(2, b"\nunotable: interrupted; nothing was done\n")
    _os._exit(130)


if _os.path.basename(_sys.argv[0] if _sys.argv else "") == "unotable" and \
        _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _quiet_ctrl_c)    # cli.main puts Python's back
