"""Results in a notebook (issue 57, item 7): one line for ``repr`` (the whole record printed before) and a verdict
table for Jupyter's ``_repr_html_``, on a demo-like audit built from the bundled reference's own figures."""

from __future__ import annotations

from demo_audit_fixture import demo_results


def test_repr_is_one_line_with_every_verdict_and_html_is_a_table():
    r = demo_results({"Position": 30.0})
    text = repr(r)
    assert "\n" not in text and len(text) < 300 and text.startswith("Results(baseline reader, quick profile; F1 ")
    for c in r.categories:
        assert f"{c.category} {c.reference_bias}" in text
    assert "against SQuAD v1.1: " in text and "Position more" in text
    page = r._repr_html_()
    assert page.count("<tr>") == len(r.categories) + 1 and "<table>" in page
    pos = next(c for c in r.categories if c.category == "Position")
    assert f"{pos.reference_difference:+.1f} [{pos.reference_difference_ci_low:+.1f}" in page
