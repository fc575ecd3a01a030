"""Where an old section went is where its heading went, too: a rule that follows its section's heading into a new
section has not *moved* (kb/diff/classes.py; issue 33: with the heading's place dropped from a section's expected
places, such rules were called moved and `kb diff` lost a section's heading target)."""
import re

from click.testing import CliRunner

from kb import diff as D
from kb.cli import main


def test_a_rule_that_follows_its_section_heading_is_renumbered_not_moved():
    # old section 100 "Casting and activating" split in two: the heading is aligned to both new sections; four of
    # its five rules went to 200, one (a fifth: under the quarter that makes a place from the rules' votes) to 300
    old = [D.make_rule("a", "100.", "", title="Casting and activating", seq=0)] + [
        D.make_rule("a", f"100.{k}", f"old rule {k}", seq=k) for k in range(1, 6)]
    new = [D.make_rule("b", "200.", "", title="Casting", seq=0)] + [
        D.make_rule("b", f"200.{k}", f"old rule {k}", seq=k) for k in range(1, 5)] + [
        D.make_rule("b", "300.", "", title="Activating", seq=10), D.make_rule("b", "300.1", "old rule 5", seq=11)]
    pairs = [("100", "200", "split", 0.9), ("100", "300", "split", 0.9)] + [
        (f"100.{k}", f"200.{k}", "", 1.0) for k in range(1, 5)] + [("100.5", "300.1", "", 1.0)]
    cls = D.classify(old, new, pairs)
    assert cls.section_map[100] == [200, 300]
    assert cls.old_class["a/100.5"] == "renumbered"     # not "moved": its section's heading went to 300 too
    group = next(g for g in cls.groups if [r.norm for r in g.old] == ["100.5"])
    assert "300.5" in group.expected
    # without the heading's second place the same rule would have left its section's place
    alone = D.classify(old, new, [p for p in pairs if p[:2] != ("100", "300")])
    assert alone.section_map[100] == [200] and alone.old_class["a/100.5"] == "moved"


def test_kb_diff_says_where_a_section_went_by_its_heading(kb_db):
    # gold (data/gold/en-1999-04-23__en-2024-11-08.tsv): 1999 section heading 214 "Permanent Type" -> 2024 110
    # "Permanents"; most of its rules went to 303 and 305
    out = CliRunner().invoke(main, ["diff", "--from", "en-1999-04-23", "--to", "en-2024-11-08", "--rule", "214.2",
                                    "--db", str(kb_db)])
    assert out.exit_code == 0, out.output
    went = next(line for line in out.output.splitlines() if "section 214 went to" in line)
    assert "110" in re.findall(r"\d+", went.split("went to", 1)[1])
