"""Screenshots of the key pages for the README: ``python scripts/screenshots.py [BASE_URL]``.

Drives Debian's Chromium (/usr/bin/chromium) through Playwright against a running ``kb serve``
(default http://127.0.0.1:8001) and writes docs/screenshots/*.png.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
PAGES = {
    "home": "/",
    "contents": "/rule/de-2024",
    "section": "/rule/en-2024-11-08/601#601.2c",
    "rule": "/rule/de-2024/601.2c",
    "search": "/search?q=spielen&lang=de",
    "diff": "/diff/de-1999/de-2024?rule=409.2f",
    "across": "/kb/rule_across_editions?number=601.2c&edition=de-2024",
    "coverage": "/coverage",
}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main(base: str = "http://127.0.0.1:8001") -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        browser = p.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium", args=ARGS,
                                                       headless=True, viewport={"width": 1280, "height": 900})
        page = browser.new_page()
        for name, path in PAGES.items():
            page.goto(base.rstrip("/") + path)
            page.screenshot(path=str(OUT / f"{name}.png"))
            print(f"wrote {OUT / name}.png")
        browser.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
