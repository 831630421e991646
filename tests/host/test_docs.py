"""Pages generated from code stay in step with it."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import rules_doc  # noqa: E402
from uno.words import EVENTS  # noqa: E402


def test_rules_page_lists_every_setting_as_the_catalogue_says():
    with open(rules_doc.PAGE) as f:
        text = f.read()
    assert rules_doc.render(text) == text, "run: python tools/rules_doc.py"


def test_formats_page_documents_every_event():
    with open(os.path.join(ROOT, "docs", "formats.md")) as f:
        text = f.read()
    for spec in EVENTS[1:]:
        assert "`%s`" % spec[0] in text, spec[0]


def test_the_host_page_tells_every_command_option_variable_and_exit_code_the_tool_has():
    import argparse
    import re
    from unotable import cli
    with open(os.path.join(ROOT, "docs", "host.md")) as f:
        text = f.read()
    p = cli.parser()
    subs = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)][0]
    for name in subs.choices:
        assert "unotable %s" % name in text or "`%s`" % name in text, name
    for word in (cli.PORT_ENV, cli.DB_ENV, "UNOTABLE_DEBUG", "--version", "--debug", "--json",
                 "`-p PORT`"):
        assert word in text, word
    codes = [int(c) for c in re.findall(r"^\| (\d+) \|", text, re.M)]
    assert codes == [0, 1, 2, 3, 130]
    for c in codes:       # the exit codes cli.py's own help gives
        assert str(c) in cli.__doc__
