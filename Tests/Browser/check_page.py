#!/usr/bin/env python3
"""Opens a web page in headless Chromium (Debian's `chromium`) through the DevTools protocol and reports, as JSON on
stdout, what the browser itself saw: console errors and uncaught exceptions, failed requests, the page's title and
visible text, the rectangles of chosen elements, and the texts of the barcodes zxing-cpp decodes in a screenshot.

    check_page.py URL [--screenshot out.png] [--width 1280] [--height 900] [--scale 1] [--mobile] [--element CSS ...]
                      [--fields] [--user-agent UA]

--user-agent makes the browser send (and navigator.userAgent report) that User-Agent, as a phone's browser would.

--fields also reports every element with a data-key attribute (a pass preview's fields): its key, data-area, the
closest article's id, its top (y), label and value texts, and whether it is visible.

Exit status 0 when the page loaded (whatever it contained), 2 when the browser could not be driven."""
import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # websocket-client
import zxingcpp
from PIL import Image


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("chromium is not installed: run scripts/install-dependencies.sh (apt-get install chromium)")


class Browser:
    """A headless Chromium with one page, driven over its DevTools WebSocket."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="passmint-chromium-")
        # Port 0: Chromium binds a free port itself and writes it to DevToolsActivePort in its profile.
        self.process = subprocess.Popen(
            [chromium_binary(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--hide-scrollbars", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        targets = None
        port = None
        active = os.path.join(self.profile, "DevToolsActivePort")
        while time.time() < deadline:
            try:
                if port is None:
                    with open(active) as lines:
                        first = lines.readline().strip()
                    if not first:
                        raise OSError("DevToolsActivePort not written yet")
                    port = int(first)
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as answer:
                    targets = [t for t in json.load(answer) if t.get("type") == "page"]
                if targets:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        if not targets:
            self.close()
            raise SystemExit("chromium did not open its DevTools port within 60 s")
        self.socket = websocket.create_connection(targets[0]["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event, timeout=30):
        deadline = time.time() + timeout
        for message in self.events:
            if message["method"] == event:
                return message
        self.socket.settimeout(timeout)
        while time.time() < deadline:
            message = json.loads(self.socket.recv())
            if "method" in message:
                self.events.append(message)
                if message["method"] == event:
                    return message
        raise RuntimeError(f"no {event} within {timeout} s")

    def close(self):
        try:
            self.process.kill()
            self.process.wait(timeout=10)
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


FIELDS = """Array.from(document.querySelectorAll("[data-key]")).map(e => { const r = e.getBoundingClientRect();
    const st = getComputedStyle(e); const part = c => { const x = e.querySelector(c); return x ? x.innerText : null; };
    const card = e.closest("article");
    return {key: e.dataset.key, area: e.dataset.area || null, card: card ? card.id : null, y: r.y, label: part(".label"),
            value: part(".value"), visible: st.display !== "none" && st.visibility !== "hidden" && r.width > 0 && r.height > 0}; })"""


def check(url, width, height, mobile, elements, screenshot, scale=1, fields=False, user_agent=None):
    browser = Browser()
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(f"{domain}.enable")
        browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale, mobile=mobile)
        if mobile:
            browser.call("Emulation.setTouchEmulationEnabled", enabled=True)
        if user_agent:
            browser.call("Emulation.setUserAgentOverride", userAgent=user_agent)
        browser.call("Page.navigate", url=url)
        browser.wait_for("Page.loadEventFired")
        time.sleep(0.3)  # late console messages
        value = browser.call("Runtime.evaluate", expression="""JSON.stringify({
            title: document.title, text: document.body ? document.body.innerText : "",
            rects: Object.fromEntries(%s.map(s => { const e = document.querySelector(s);
                if (!e) return [s, null]; const r = e.getBoundingClientRect(); const st = getComputedStyle(e);
                return [s, {x: r.x, y: r.y, width: r.width, height: r.height,
                            visible: st.display !== "none" && st.visibility !== "hidden" && r.width > 0 && r.height > 0,
                            href: e.getAttribute("href")}]; })), fields: %s})""" % (json.dumps(elements),
                                                                               FIELDS if fields else "[]"), returnByValue=True)
        page = json.loads(value["result"]["value"])
        shot = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
        path = screenshot or os.path.join(browser.profile, "shot.png")
        with open(path, "wb") as f:
            f.write(shot)
        barcodes = [{"format": str(b.format), "text": b.text} for b in zxingcpp.read_barcodes(Image.open(path))]
        console = [e["params"] for e in browser.events
                   if e["method"] == "Runtime.consoleAPICalled" and e["params"].get("type") in ("error", "assert")]
        console += [e["params"]["entry"] for e in browser.events
                    if e["method"] == "Log.entryAdded" and e["params"]["entry"].get("level") == "error"]
        exceptions = [e["params"]["exceptionDetails"].get("text") for e in browser.events if e["method"] == "Runtime.exceptionThrown"]
        failed = [e["params"] for e in browser.events if e["method"] == "Network.loadingFailed"]
        statuses = [e["params"]["response"]["status"] for e in browser.events
                    if e["method"] == "Network.responseReceived" and e["params"].get("type") == "Document"]
        return {"title": page["title"], "text": page["text"], "elements": page["rects"], "fields": page["fields"], "barcodes": barcodes,
                "consoleErrors": console, "exceptions": exceptions, "failedRequests": failed, "documentStatuses": statuses}
    finally:
        browser.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--screenshot")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--scale", type=float, default=1)
    parser.add_argument("--mobile", action="store_true")
    parser.add_argument("--fields", action="store_true")
    parser.add_argument("--element", action="append", default=[])
    parser.add_argument("--user-agent")
    arguments = parser.parse_args()
    try:
        report = check(arguments.url, arguments.width, arguments.height, arguments.mobile, arguments.element, arguments.screenshot,
                       arguments.scale, arguments.fields, arguments.user_agent)
    except (RuntimeError, OSError, websocket.WebSocketException) as error:
        print(f"check_page.py: {error}", file=sys.stderr)
        return 2
    json.dump(report, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
