"""The timeline `kb history` prints, on a small hand-made history: a header naming the rule (and its concept), each
family's chain with a row per edition where the rule appeared, changed its number or words, split, merged or went,
the lineage's links of that step and its word diff below the row, the editions in between that printed it unchanged
counted on one line, and the rule's counterparts in other languages last.

The expected text is written out here, column by column, as a reader sees it (the column widths are those of the
real output: date 11, edition 16, numbers 12).  And a rule the KB does not have is a message saying where it was
looked for."""
from __future__ import annotations

import sqlite3

import pytest

from kb.history import Chain, Event, History, HistoryError, history, link_text, render_text


def test_a_link_names_its_numbers_relation_and_confidence_or_its_review():
    assert link_text({"old": "409.2f", "new": "601.2f", "relation": "split", "confidence": 0.4949,
                      "review": None}) == "409.2f → 601.2f split 0.49"
    assert link_text({"old": "409.2f", "new": "601.2h", "relation": "split", "confidence": 0.3,
                      "review": "confirmed"}) == "409.2f → 601.2h split reviewed: confirmed"


def split_link(new: str, confidence: float) -> dict:
    return {"old": "409.2f", "new": new, "relation": "split", "confidence": confidence, "review": None}


def test_the_timeline_shows_each_change_and_counts_the_quiet_editions():
    de = Chain("de-cr", "de", [
        Event("de-1999", "1999-04-23", "first", ["409.2f"]),
        Event("de-2002", "2002-07-01", "unchanged", ["409.2f"], previous="de-1999", changed=False),
        Event("de-2004", "2004-10-01", "equivalent", ["409.2f"], previous="de-2002", changed=False),
        Event("de-2008", "2008-10-01", "linked", ["409.2f"], previous="de-2004", changed=False),
        Event("de-2024", "2024-11-08", "split", ["601.2f", "601.2h"], "409.2f → 601.2f, 601.2h",
              "[-Kosten-] {+Gesamtkosten+} bestimmen", previous="de-2008",
              links=[split_link("601.2f", 0.81), split_link("601.2h", 0.5)]),
    ])
    en = Chain("en-cr", "en", [
        Event("en-1999-04-23", "1999-04-23", "first", ["409.1f"]),
        Event("en-2004-10-01", "2004-10-01", "unchanged", ["409.1f"], changed=False),
        Event("en-2008-10-01", "2008-10-01", "unchanged", ["409.1f"], changed=False),
        Event("en-2009-07-11", "2009-07-11", "removed", [], "no counterpart of 409.1f", previous="en-2008-10-01"),
    ])
    h = History("de-2024", "601.2f", 42, "Kosten bestimmen", [de, en],
                [("en-2024-11-08", "601.2f", "en"), ("it-wiki", "601.2f", "it")])
    assert render_text(h).splitlines() == [
        "601.2f (de-2024) — concept 42: Kosten bestimmen",
        "  de-cr (de):",
        "    1999-04-23  de-1999          409.2f       first appears",
        "                                              unchanged in 3 editions (de-2002 … de-2008)",
        "    2024-11-08  de-2024          601.2f, 601.2h split: 409.2f → 601.2f, 601.2h",
        "                  409.2f → 601.2f split 0.81; 409.2f → 601.2h split 0.50",
        "                  [-Kosten-] {+Gesamtkosten+} bestimmen",
        "  en-cr (en):",
        "    1999-04-23  en-1999-04-23    409.1f       first appears",
        "                                              unchanged in 2 editions (en-2004-10-01 … en-2008-10-01)",
        "    2009-07-11  en-2009-07-11    —            removed: no counterpart of 409.1f",
        "  in other languages: en-2024-11-08 601.2f, it-wiki 601.2f",
    ]


def test_a_rule_without_concept_or_counterparts_has_a_bare_header_and_no_language_line():
    # (a split or a merge is a row even where the rule's own number and words stayed)
    quiet_end = Chain("en-cr", "en", [
        Event("en-2020-01-24", "2020-01-24", "first", ["702.34"]),
        Event("en-2021-02-05", "2021-02-05", "reworded", ["702.34"], previous="en-2020-01-24", changed=False),
        Event("en-2023-04-14", "2023-04-14", "split", ["702.34"], previous="en-2021-02-05", changed=False),
        Event("en-2024-11-08", "2024-11-08", "merged", ["702.34"], previous="en-2023-04-14", changed=False),
    ])
    h = History("en-2024-11-08", "702.34", None, "", [quiet_end], [])
    assert render_text(h).splitlines() == [
        "702.34 (en-2024-11-08)",
        "  en-cr (en):",
        "    2020-01-24  en-2020-01-24    702.34       first appears",
        "                                              unchanged in 1 edition (en-2021-02-05)",
        "    2023-04-14  en-2023-04-14    702.34       split",
        "    2024-11-08  en-2024-11-08    702.34       merged",
    ]


def test_a_rule_no_edition_has_is_named_with_where_it_was_looked_for(kb_db):
    conn = sqlite3.connect(kb_db)
    with pytest.raises(HistoryError, match=r"^no rule 999\.9 in any edition$"):
        history(conn, "999.9")
    with pytest.raises(HistoryError, match=r"^no rule 999\.9 in edition de-2024$"):
        history(conn, "999.9", "de-2024")
    conn.close()
