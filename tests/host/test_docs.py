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
