"""Datasette through its test client: rule pages, links, search, canned queries, read-only serving."""
import asyncio
import re

import pytest

from kb.serve import make_datasette


@pytest.fixture(scope="module")
def get(kb_db):
    ds = make_datasette(kb_db)
    loop = asyncio.new_event_loop()
    loop.run_until_complete(ds.invoke_startup())

    def fetch(path):
        return loop.run_until_complete(ds.client.get(path))

    fetch.ds = ds
    yield fetch
    loop.close()


def test_rule_page_links_references_in_the_same_edition(get):
    r = get("/rule/de-2024/601.2")
    assert r.status_code == 200
    links = dict(re.findall(r'<a class="rule-ref" href="([^"]+)"[^>]*>([^<]+)</a>', r.text))
    assert links["/rule/de-2024/601.2a"] == "601.2a–e"
    assert links["/rule/de-2024/601.3"] == "601.3"
    assert links["/rule/de-2024/730"] == "730"


def test_rule_page_shows_examples_and_citing_rules(get):
    r = get("/rule/de-2024/601.2h")
    assert "Ernte des Altars" in r.text  # its example
    cited_by = r.text.split("Cited by")[1]
    assert 'href="/rule/de-2024/601.2"' in cited_by and 'href="/rule/de-2024/602.2b"' in cited_by


def test_rule_outside_the_excerpt(get):
    r = get("/rule/de-2024/730")
    assert r.status_code == 404 and "not in edition de-2024" in r.text
    r = get("/rule/de-2024/409.2f")
    assert 'href="/rule/de-1999/409.2f"' in r.text  # the 1999 edition has it


def test_table_cells_link_rule_numbers(get):
    r = get("/kb/rules?key=de-1999%2F203.4")
    assert 'href="/rule/de-1999/409"' in r.text


def test_table_search_finds_inflected_form(get):
    r = get("/kb/rules.json?_search=Zauberspruch&edition_id=de-2024&_shape=array&_size=max")
    texts = [row["text"] for row in r.json()]
    assert any("Zaubersprüche" in t and not re.search(r"\bZauberspruch\b", t) for t in texts)


@pytest.mark.parametrize("q,lang,form", [("wirken", "de", "gewirkt"), ("magia", "it", "magie"),
                                         ("Zauberspruch", "de", "Zaubersprüche")])
def test_lemma_search_canned_query(get, q, lang, form):
    r = get(f"/kb/lemma_search.json?q={q}&lang={lang}&_shape=array")
    assert r.status_code == 200
    assert any(re.search(rf"\b{form}\b", row["text"] or "") for row in r.json())


def test_canned_queries(get):
    rows = get("/kb/rule_by_number.json?number=601.2c&_shape=array").json()
    assert {row["edition_id"] for row in rows} >= {"de-2024", "it-wiki"}
    citing = get("/kb/citing_rules.json?number=601.2h&edition=de-2024&_shape=array").json()
    assert "601.2" in {row["cited_from"] for row in citing}
    unresolved = get("/kb/unresolved_references.json?_shape=array").json()
    assert {"edition_id": "de-2024", "target": "730"}.items() <= next(
        row for row in unresolved if row["target"] == "730" and row["edition_id"] == "de-2024").items()


def test_served_read_only_with_metadata_and_facets(get):
    assert get.ds.databases["kb"].is_mutable is False
    r = get("/kb/rules")
    assert "Rule nodes" in r.text  # table description from the metadata
    assert r.text.count('<td class="col-key ') == 20   # the metadata's page size
    items = get("/kb/items").text
    assert 'id="facet-kind"' in items and 'id="facet-edition_id"' in items   # the items' default facets
    assert 'id="facet-level"' in get("/kb/rules?_facet=level").text     # more on demand


def test_table_rows_in_python_match_datasettes_jinja_loop():
    """kb_rows_html replaces the cell loop of Datasette's _table.html; Jinja, given the loop, prints the same."""
    import jinja2
    from datasette.utils import to_css_class
    from markupsafe import Markup

    from kb.datasette_plugin import rows_html

    loop = ('{% for row in display_rows %}<tr>{% for cell in row %}<td class="col-{{ cell.column|to_css_class }} '
            'type-{{ cell.value_type }}">{{ cell.value }}</td>{% endfor %}</tr>\n{% endfor %}')
    env = jinja2.Environment(autoescape=True)
    env.filters["to_css_class"] = to_css_class
    rows = [[{"column": "text", "value_type": "str", "value": "<b>Zauber & Co</b>"},
             {"column": "key", "value_type": "pk", "value": Markup('<a href="/rule/x/1">1</a>')}],
            [{"column": "weird col!", "value_type": "int", "value": 3},
             {"column": "_x", "value_type": "none", "value": Markup("&nbsp;")}]]
    assert str(rows_html(rows)) == env.from_string(loop).render(display_rows=rows)
    assert "&lt;b&gt;Zauber &amp; Co&lt;/b&gt;" in rows_html(rows)


def test_table_search_page_shows_its_rows(get):
    r = get("/kb/rules?_search=Zaubersprüche&_size=3")
    assert r.status_code == 200
    cells = re.findall(r'<td class="col-key type-[a-z]+"><a href="/rule/([^"]+)"', r.text)
    assert len(cells) == 3 and all(c.count("/") == 1 for c in cells)
