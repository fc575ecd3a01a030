"""The key journeys in a real browser: headless Chromium (Debian's /usr/bin/chromium through Playwright)
against ``kb serve`` on a free 127.0.0.1 port.  Assertions are on the rendered page: text present, links
that resolve with status 200, no console errors.  Then every link of every page of one edition is checked."""
import tempfile
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote, urljoin, urlsplit

import httpx
import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
EDITION = "de-2024"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=ARGS, headless=True)
        yield context
        context.close()


@pytest.fixture
def page(browser):
    page = browser.new_page()
    page.errors = []
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("response", lambda r: page.errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    yield page
    assert page.errors == [], page.errors
    page.close()


def follow(page, link):
    """Click ``link`` (a selector or a locator) and wait until the page it leads to has loaded: a click returns
    once a navigation has begun, and reading the page before it has loaded reads the old one or half the new."""
    page.click(link) if isinstance(link, str) else link.click()
    page.wait_for_load_state()


def goto(page, url):
    response = page.goto(url)
    assert response is not None and response.status == 200, (url, response and response.status)
    return response


def test_home_contents_rule_counterpart_diff_and_back(page, server):
    goto(page, server + "/")
    assert "Editions" in page.inner_text("h2")
    follow(page, f"#editions a[href='/rule/{EDITION}']")
    assert page.url == f"{server}/rule/{EDITION}"
    follow(page, "#contents summary a[href='/rule/de-2024/601']")
    assert page.url.endswith("/rule/de-2024/601")
    follow(page, "#section-text a.sec-num[href='/rule/de-2024/601.2c']")
    assert "601.2c" in page.inner_text("h1")
    follow(page, "a[rel=next]")
    assert page.url.endswith("/rule/de-2024/601.2d")
    page.go_back()
    assert page.url.endswith("/rule/de-2024/601.2c")
    follow(page, ".counterpart a[href='/rule/it-wiki/601.2c']")
    assert "it-wiki" in page.inner_text("h1") and "translation" in page.inner_text("#counterparts ~ .kb-side")
    follow(page, "a[href='/diff/it-wiki/de-2024?rule=601.2c']")
    assert "601.2c" in page.inner_text("h1") and "it-wiki" in page.inner_text("h1")
    page.go_back()
    page.go_back()
    assert page.url.endswith("/rule/de-2024/601.2c")


def test_search_journey(page, server):
    goto(page, server + "/")
    page.fill("#home-search input[name=q]", "spielen")
    page.select_option("#home-search select[name=lang]", "de")
    follow(page, "#home-search button")
    page.wait_for_selector("#results")
    assert "spielen → wirken" in page.inner_text("#widened")
    first = page.locator("#results a").first
    assert first.get_attribute("href").startswith("/rule/")
    assert page.locator("#results mark").count() > 0
    follow(page, first)
    assert "/rule/" in page.url
    page.fill("nav input[name=q]", "601.2f")
    page.press("nav input[name=q]", "Enter")
    page.wait_for_url("**/rule/de-2024/601.2f")


def test_rule_lookup_remembers_the_edition(page, server):
    goto(page, server + "/")
    page.select_option("#home-lookup select[name=edition]", "it-wiki")
    page.fill("#home-lookup input[name=number]", "601.2C")
    follow(page, "#home-lookup button")
    page.wait_for_url("**/rule/it-wiki/601.2c")
    assert "601.2c" in page.inner_text("h1")
    goto(page, server + "/")
    assert page.eval_on_selector("#home-lookup select[name=edition]", "e => e.value") == "it-wiki"


def test_glossary_journey(page, server):
    goto(page, server + "/glossary/de-1999?q=Abwerfn")
    follow(page, ".kb-note a[href='#t-abwerfen']")
    assert page.url.endswith("#t-abwerfen") and page.is_visible("#t-abwerfen")
    goto(page, server + "/rule/de-1999/217.3b")
    link = page.locator("a.gloss").first
    href = link.get_attribute("href")
    follow(page, link)
    assert unquote(page.url).endswith(href)
    assert page.is_visible(href.split("/glossary/de-1999")[1])


def _links(client, base, path):
    r = client.get(base + path)
    from html.parser import HTMLParser

    found = []

    class P(HTMLParser):
        def handle_starttag(self, tag, attrs):
            href = dict(attrs).get("href") if tag in ("a", "link") else None
            if href and not href.startswith(("#", "mailto:", "javascript:")):
                found.append(urljoin(base + path, href).split("#")[0])

    P().feed(r.text)
    return r.status_code, found


def test_every_link_of_one_edition_resolves(server):
    """Every page of the edition (contents and rule pages) and every link on them: no 404 or 500, except rules
    outside the edition's excerpt, whose page says so."""
    with httpx.Client(timeout=30) as client:
        status, contents_links = _links(client, server, f"/rule/{EDITION}")
        assert status == 200
        pages = sorted({u for u in contents_links if urlsplit(u).path.startswith(f"/rule/{EDITION}/")})
        assert len(pages) > 300
        with ThreadPoolExecutor(8) as pool:
            results = list(pool.map(lambda u: _links(client, server, urlsplit(u).path), pages))
        assert all(s == 200 for s, _ in results)
        everything = {u for _, found in results for u in found} | set(contents_links)
        links = sorted(u for u in everything if urlsplit(u).netloc == urlsplit(server).netloc)
        # the only links that leave the site are Datasette's own in the footer (this machine has no network)
        assert {urlsplit(u).netloc for u in everything} - {urlsplit(server).netloc} <= {"datasette.io"}

        def check(url):
            r = client.get(url)
            return url, r.status_code, r.text

        with ThreadPoolExecutor(8) as pool:
            checked = list(pool.map(check, links))
    bad = [(u, s) for u, s, text in checked if s >= 500 or (s == 404 and "is not in edition" not in text)]
    assert not bad, bad[:10]
    outside = [u for u, s, _ in checked if s == 404]
    assert any(u.endswith("/rule/de-2024/730") for u in outside)   # cited, outside the chapter-6 excerpt


def test_section_page_anchors_links_and_neighbours(page, server):
    goto(page, server + "/rule/en-2024-11-08")
    follow(page, "#contents a.full-text[href='/rule/en-2024-11-08/601#section-text']")
    assert page.url.endswith("/rule/en-2024-11-08/601#section-text")
    numbers = page.locator("#section-text a.sec-num")
    anchors = page.eval_on_selector_all("#section-text > div[id]", "els => els.map(e => e.id)")
    assert numbers.count() == len(anchors) == 26 and anchors[0] == "601.1" and "601.2c" in anchors
    goto(page, server + "/rule/en-2024-11-08/601.2f")
    page.goto(server + "/rule/en-2024-11-08/601#601.2f")
    box = page.locator("[id='601.2f']").bounding_box()
    assert box is not None and -5 <= box["y"] < 200                 # scrolled to the anchor
    assert "total cost of the spell" in page.inner_text("[id='601.2f']")
    page.hover("[id='601.2h']")                                      # the ¶ shows on hover
    follow(page, page.locator("[id='601.2h'] a.sec-anchor"))
    assert page.url.endswith("/rule/en-2024-11-08/601#601.2h")
    follow(page, "[id='601.2h'] a.sec-num")
    assert page.url.endswith("/rule/en-2024-11-08/601.2h") and "601.2h" in page.inner_text("h1")
    follow(page, "a.in-section")
    assert page.url.endswith("/rule/en-2024-11-08/601#601.2h")
    follow(page, page.locator(".kb-prevnext a", has_text="602").first)
    assert page.url.endswith("/rule/en-2024-11-08/602")
    assert page.locator("#section-text a.sec-num").first.inner_text() == "602.1."        # as printed


def test_glossary_links_a_reader_trusts(page, server):
    goto(page, server + "/rule/en-2024-11-08/601.2f")
    linked = [t.strip().lower() for t in page.locator(".rule-text a.gloss").all_inner_texts()]
    assert "total cost" in linked and "additional costs" in linked
    assert not set(linked) & {"if", "becomes", "cards", "locked", "player"}
    follow(page, page.locator(".rule-text a.gloss", has_text="total cost").first)
    assert page.url.endswith("/glossary/en-2024-11-08#t-total-cost") and page.is_visible("#t-total-cost")
    goto(page, server + "/rule/de-2024/601.2")
    cast = page.locator(".rule-text a.gloss", has_text="wirken").first
    assert cast.get_attribute("href") == "/glossary/en-2024-11-08#t-cast"
    follow(page, cast)
    assert page.is_visible("#t-cast")
    goto(page, server + "/glossary/de-1999")
    follow(page, "#t-ebenentarnung + dd a.see")
    assert page.url.endswith("#t-landtarnung") and page.is_visible("#t-landtarnung")


def test_search_pages_and_the_widening_checkbox(page, server):
    goto(page, server + "/search?q=Karte&lang=de")
    assert page.inner_text("#result-count").startswith("results 1–50 of ")
    total = int(page.inner_text("#result-count").split(" of ")[1].split(",")[0])
    box, label = page.locator("label.kb-check input").bounding_box(), page.locator("label.kb-check").bounding_box()
    assert box and label and abs(box["y"] + box["height"] / 2 - (label["y"] + label["height"] / 2)) < 6
    button = page.locator("#search-form button").bounding_box()
    clipped = page.eval_on_selector("label.kb-check", "l => l.scrollWidth > l.clientWidth")
    assert button and not clipped and (button["x"] >= label["x"] + label["width"] or button["y"] > label["y"])
    follow(page, "#search-pages a[rel=next]")
    assert "page=2" in page.url and page.inner_text("#result-count").startswith("results 51–100 of ")
    assert page.get_attribute("#results", "start") == "51" and page.locator("#results > li").count() == 50
    while page.locator("#search-pages a[rel=next]").count():      # to the last page
        follow(page, "#search-pages a[rel=next]")
    last = page.inner_text("#result-count")
    assert last.endswith(f"of {total}, best first") and last.split("–")[1].split(" ")[0] == str(total)
    follow(page, "#search-pages a[rel=prev]")
    assert page.locator("#results > li").count() == 50


def test_coverage_totals_add_up_on_the_page(page, server):
    goto(page, server + "/coverage")
    rows = page.eval_on_selector_all(
        "#coverage-editions tr", "trs => trs.slice(1).map(tr => [...tr.children].map(td => td.innerText.trim()))")
    body, total = rows[:-1], rows[-1]
    assert total[0] == "total" and len(body) >= 3
    for i in range(1, 6):
        assert int(total[i]) == sum(int(r[i]) for r in body)
    assert page.get_attribute("details#cov-de-2024", "open") is not None      # the best covered edition, open
    assert page.get_attribute("details#cov-de-1999", "open") is None          # the rest folded
    follow(page, "#coverage-editions a[href='#cov-de-1999']")
    # following a link opens it (the page's hashchange handler runs after the click returns: wait for it)
    assert page.wait_for_selector("details#cov-de-1999[open]", state="attached") is not None
    chapter = page.eval_on_selector_all("#cov-de-2024 tr.chapter-total",
                                        "trs => trs.map(tr => [...tr.children].map(td => td.textContent.trim()))")
    assert len(chapter) == 1 and chapter[0][:2] == ["chapter 6", body[0][1]]
