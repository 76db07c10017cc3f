#!/usr/bin/env python3
"""Opens archivist's HTML reports in headless Chromium and reports what a user sees there.

Driven by Playwright for Python with the system's Chromium (Debian's `chromium`), never a
downloaded browser. The pages are opened offline: any request for something other than the
page itself or a data: URL is reported. Prints one JSON object of observations; the Swift tests
(Tests/ArchivistCLITests/ReportBrowserTests.swift) make the assertions.

    check-report-pages.py [--sweep report.html --class UIColor --open NAME]
                          [--inspect graph.html] [--large report.html] [--screenshots DIR]
                          [--chromium PATH]
"""
import argparse
import json
import sys

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError, sync_playwright


def watch(page, log):
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on("console", lambda m: log["errors"].append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else log["requests"].append(r.url))


def visible_rows(page):
    return page.eval_on_selector_all(
        "#rows .row", "rows => rows.map(r => ({path: r.dataset.path, kind: r.querySelector('.c-kind').textContent,"
        " classes: r.querySelector('.c-classes').textContent, verdict: r.querySelector('.c-verdict').textContent}))")


def check_sweep(context, path, class_name, open_name, screenshots):
    log = {"errors": [], "requests": []}
    page = context.new_page()
    watch(page, log)
    page.goto("file://" + path)
    page.wait_for_function("document.getElementById('shown').textContent.length > 0")
    seen = {
        "shown": page.inner_text("#shown"),
        "rows": visible_rows(page),
        "cards": page.eval_on_selector_all(".card", "cs => Object.fromEntries(cs.map(c => [c.dataset.kind, c.querySelector('b').textContent]))"),
        "embeddedItems": page.evaluate("window.archivistSweep.items.length"),
    }
    # Wait for the filter to be applied (and, cleared, undone) rather than for a fixed time: on
    # a loaded machine the table redraws later, and a click on a row being redrawn opens nothing.
    page.fill("#filter-class", class_name)
    page.wait_for_function("shown => document.getElementById('shown').textContent !== shown", arg=seen["shown"])
    page.wait_for_timeout(200)
    seen["filtered"] = {"shown": page.inner_text("#shown"), "rows": visible_rows(page)}
    page.fill("#filter-class", "")
    page.wait_for_function("shown => document.getElementById('shown').textContent === shown", arg=seen["shown"])
    page.wait_for_timeout(200)
    if open_name:
        # A real click on the row. On a loaded machine the click can land while the table is
        # being redrawn (a scroll into view redraws it) and open nothing; the row is then
        # clicked again, a few times at most, and the detail must still open.
        for attempt in range(4):
            page.click(f"#rows .row[data-path$='{open_name}']")
            try:
                page.wait_for_selector("#detail:not([hidden])", timeout=5000)
                break
            except PlaywrightTimeoutError:
                if attempt == 3:
                    raise
        seen["detail"] = {
            "title": page.inner_text("#detail-title"),
            "fields": page.eval_on_selector_all("#detail-fields tr", "trs => trs.map(t => t.innerText)"),
            "graphRoot": page.inner_text("#detail-graph > details > summary") if page.query_selector("#detail-graph") else None,
        }
    # Sorting by size, largest first: the first row is the largest item.
    page.click("#grid-head span[data-column='size']")
    page.click("#grid-head span[data-column='size']")
    page.wait_for_timeout(100)
    seen["largestFirst"] = page.eval_on_selector("#rows .row", "r => r.dataset.path")
    if screenshots:
        page.click("#grid-head span[data-column='path']")
        page.set_viewport_size({"width": 1400, "height": 900})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=f"{screenshots}/sweep-report.png", full_page=False)
    seen.update(log)
    page.close()
    return seen


def check_large(context, path, class_name):
    """A page of many items: only the rows in view are in the document, filtering and scrolling
    work on all of them."""
    log = {"errors": [], "requests": []}
    page = context.new_page()
    watch(page, log)
    page.goto("file://" + path)
    page.wait_for_function("document.getElementById('shown').textContent.length > 0", timeout=120000)
    seen = {"shown": page.inner_text("#shown"), "drawn": page.locator("#rows .row").count(),
            "embeddedItems": page.evaluate("window.archivistSweep.items.length")}
    page.evaluate("const r = document.getElementById('rows'); r.scrollTop = r.scrollHeight")
    # The rows are drawn again on the scroll event, which a loaded machine delivers late: wait
    # until the last item is drawn rather than for a fixed time (what is drawn is checked after).
    page.wait_for_function("() => { const rs = document.querySelectorAll('#rows .row');"
                           " return rs.length > 0 && rs[rs.length - 1].dataset.index == window.archivistSweep.items.length - 1; }")
    seen["lastAfterScrolling"] = page.eval_on_selector_all("#rows .row", "rs => rs[rs.length - 1].dataset.path")
    seen["drawnAfterScrolling"] = page.locator("#rows .row").count()
    page.fill("#filter-class", class_name)
    page.wait_for_timeout(500)
    seen["filtered"] = {"shown": page.inner_text("#shown"), "drawn": page.locator("#rows .row").count(),
                        "classes": sorted(set(page.eval_on_selector_all("#rows .row .c-classes", "cs => cs.map(c => c.textContent)")))}
    seen.update(log)
    page.close()
    return seen


def check_inspect(context, path, screenshots):
    log = {"errors": [], "requests": []}
    page = context.new_page()
    watch(page, log)
    page.goto("file://" + path)
    page.wait_for_selector("#graph details[open]")
    root = "#graph > details"
    seen = {"classes": page.eval_on_selector_all("#classes tr", "trs => trs.map(t => t.innerText.replace('\\t', ' '))")}
    seen["rootSummary"] = page.inner_text(f"{root} > summary")
    seen["rootFields"] = page.eval_on_selector_all(f"{root} > div > * > .key, {root} > div > details > summary > .key",
                                                   "ks => ks.map(k => k.textContent)")
    owner = page.locator(f"{root} > div > details:has(> summary > .key:text-is('owner'))")
    seen["ownerFieldsBeforeExpanding"] = owner.locator(":scope > div .key").count()
    owner.locator(":scope > summary").click()
    # The fields are drawn when the node opens: wait for them rather than read at once (under a
    # full test run on two cores the read came before the drawing, and saw none).
    owner.locator(":scope > div > * .key").first.wait_for(state="attached", timeout=15000)
    seen["ownerFields"] = owner.locator(":scope > div > * .key").all_text_contents()
    seen["cycle"] = owner.locator(".cycle").all_text_contents()
    seen["swatch"] = page.eval_on_selector(".swatch", "s => ({rgb: s.dataset.rgb, background: getComputedStyle(s).backgroundColor})")
    created = page.locator(f"{root} > div > details:has(> summary > .key:text-is('created')) > summary")
    seen["created"] = created.inner_text()
    attachments = page.locator(f"{root} > div > details:has(> summary > .key:text-is('attachments'))")
    attachments.locator(":scope > summary").click()
    photo = attachments.locator(":scope > div > details").nth(0)
    photo.locator(":scope > summary").click()
    seen["image"] = photo.locator("img").evaluate("i => ({alt: i.alt, width: i.naturalWidth, height: i.naturalHeight, complete: i.complete})")
    nested = attachments.locator(":scope > div > details").nth(1)
    nested.locator(":scope > summary").click()
    seen["nestedData"] = {"holds": nested.locator(".muted").first.inner_text(), "hex": nested.locator(".hex").inner_text().split("\n")[0]}
    link = page.locator(f"{root} > div > .leaf:has(> .key:text-is('pinned')) .ref")
    seen["shared"] = link.inner_text()
    link.click()
    # The target is marked for 1.5 s once revealed: wait for the mark, not a fixed time.
    page.locator(".flash").first.wait_for(state="attached", timeout=15000)
    seen["revealed"] = page.eval_on_selector_all(".flash", "fs => fs.map(f => f.parentElement.id)")
    if screenshots:
        page.set_viewport_size({"width": 1100, "height": 820})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=f"{screenshots}/inspect-graph.png", full_page=False)
    seen.update(log)
    page.close()
    return seen


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sweep")
    parser.add_argument("--class", dest="class_name", default="UIColor")
    parser.add_argument("--open")
    parser.add_argument("--inspect")
    parser.add_argument("--large", help="a sweep page of many items")
    parser.add_argument("--screenshots")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    with sync_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
        browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, offline=True, locale="en-US", timezone_id="UTC")
        context.set_default_timeout(20000)
        seen = {}
        if args.sweep:
            seen["sweep"] = check_sweep(context, args.sweep, args.class_name, args.open, args.screenshots)
        if args.inspect:
            seen["inspect"] = check_inspect(context, args.inspect, args.screenshots)
        if args.large:
            seen["large"] = check_large(context, args.large, args.class_name)
        browser.close()
    json.dump(seen, sys.stdout)
    print()


if __name__ == "__main__":
    main()
