"""The host tool's one user-facing error: every failure a user can meet is an UnotableError.

str() is the one line cli.main prints (after "unotable COMMAND: "); .code is the exit code
(docs/host.md): 2 nothing was done, 1 a check found a problem. cli.main catches it once;
`--debug` shows the traceback as well.
"""
import os


class UnotableError(Exception):
    code = 2


class UsageError(UnotableError):
    """Arguments the command cannot work with (a bad NAME=VALUE, a missing FILE ...)."""


class NotFound(UnotableError, LookupError):
    """No such table, file or thing: str() says where to look."""


class CheckFailed(UnotableError):
    """A check ran and found a problem (exit 1): what was done stays done."""
    code = 1


def file_error(e, path=None, doing="read"):
    """An OSError on a file the user named, as one line (UsageError)."""
    name = path or getattr(e, "filename", None) or "the file"
    why = getattr(e, "strerror", None) or str(e)
    if isinstance(e, IsADirectoryError) or (path and os.path.isdir(path)):
        why = "it is a directory"
    return UsageError("cannot %s %s: %s" % (doing, name, why))


def endless(path):
    """A device named as a file to read (/dev/zero, /dev/urandom: never at its end), as the
    UsageError to say, else None. Read whole, it filled the memory. `-` is standard input."""
    import stat
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None                  # open() says what is wrong
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return UsageError("cannot read %s: it is a device, not a file: give a table script or "
                          "game record" % path)
    return None
