#!/usr/bin/env python3
"""Opens a web page in headless Chromium (Debian's `chromium`) through the DevTools protocol (on a pipe) and reports, as JSON on
stdout, what the browser itself saw: console errors and uncaught exceptions, failed requests, the page's title and
visible text, the rectangles of chosen elements, and the texts of the barcodes zxing-cpp decodes in a screenshot.

    check_page.py URL [--screenshot out.png] [--width 1280] [--height 900] [--scale 1] [--mobile] [--element CSS ...]
                      [--fields] [--user-agent UA] [--accept-language LANGUAGES]

--user-agent makes the browser send (and navigator.userAgent report) that User-Agent, as a phone's browser would.
--accept-language makes it send that Accept-Language (e.g. "de-DE,de;q=0.9"), as a browser set to those languages
would. The report's "lang" is the page's <html lang>.

--fields also reports every element with a data-key attribute (a pass preview's fields): its key, data-area, the
closest article's id, its top (y), label and value texts, and whether it is visible.

Exit status 0 when the page loaded (whatever it contained), 2 when the browser could not be driven."""
import argparse
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import select
import tempfile
import time

import zxingcpp
from PIL import Image


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("chromium is not installed: run scripts/install-dependencies.sh (apt-get install chromium)")


class Browser:
    """A headless Chromium with one page, driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
    commands on the child's fd 3, answers and events on its fd 4, each message ending in a NUL byte), so nothing waits
    for a port to appear."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="passmint-chromium-")
        self.log = open(os.path.join(self.profile, "chromium.log"), "wb")  # its stderr, quoted when it fails
        to_browser, self.commands = os.pipe()
        self.answers, from_browser = os.pipe()
        # The ends the browser gets, moved to 10 and above: `3<&N 4>&M` below must never read an fd it has just
        # overwritten (a caller that started this script with a standard stream closed gets pipes at 0–4).
        to_browser, from_browser = (self.moved_high(fd) for fd in (to_browser, from_browser))

        # Bash (it takes descriptors past 9) gives the browser our pipe ends as its fds 3 and 4, then becomes it.
        self.process = subprocess.Popen(
            ["bash", "-c", f'exec "$0" "$@" 3<&{to_browser} 4>&{from_browser}', chromium_binary(), "--headless", "--no-sandbox",
             "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
             "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log, pass_fds=(to_browser, from_browser))
        os.close(to_browser)
        os.close(from_browser)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None
        pages = [t for t in self.call("Target.getTargets")["targetInfos"] if t.get("type") == "page"]
        if not pages:
            self.close()
            raise RuntimeError("chromium opened no page")
        self.session = self.call("Target.attachToTarget", targetId=pages[0]["targetId"], flatten=True)["sessionId"]

    @staticmethod
    def moved_high(fd):
        """`fd` duplicated to the lowest free descriptor from 10 up, the original closed."""
        high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
        os.close(fd)
        return high

    def receive(self, deadline):
        """The next message from the browser; RuntimeError at the deadline or when the browser ends."""
        while b"\0" not in self.buffer:
            left = deadline - time.time()
            if left <= 0 or not select.select([self.answers], [], [], left)[0]:
                raise RuntimeError("the browser did not answer in time")
            chunk = os.read(self.answers, 1 << 20)
            if not chunk:
                raise RuntimeError(f"the browser ended (exit status {self.process.poll()}): {self.last_words()}")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method, timeout=60, **params):
        self.next_id += 1
        ident = self.next_id
        command = {"id": ident, "method": method, "params": params}
        if self.session:
            command["sessionId"] = self.session
        try:
            os.write(self.commands, json.dumps(command).encode() + b"\0")
        except BrokenPipeError:
            raise RuntimeError(f"the browser stopped reading commands (exit status {self.process.poll()}): {self.last_words()}")
        deadline = time.time() + timeout
        while True:
            message = self.receive(deadline)
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event, timeout=30):
        for message in self.events:
            if message["method"] == event:
                return message
        deadline = time.time() + timeout
        while True:
            message = self.receive(deadline)
            if "method" in message:
                self.events.append(message)
                if message["method"] == event:
                    return message

    def last_words(self):
        """The end of what Chromium wrote to its stderr, less the D-Bus noise of a machine without a session bus."""
        try:
            with open(os.path.join(self.profile, "chromium.log"), errors="replace") as log:
                lines = [line.rstrip() for line in log if "dbus" not in line]
        except OSError:
            return "(no log)"
        return " | ".join(lines[-6:])[-800:] or "(nothing on stderr)"

    def settle(self):
        """Lets the page run what it queued after its load event (timers of 0 ms, the next frames): the console
        messages and exceptions those raise arrive before this call's answer."""
        self.call("Runtime.evaluate", awaitPromise=True, expression="""new Promise(done =>
            requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 0))))""")

    def close(self):
        try:
            self.process.kill()
            self.process.wait(timeout=10)
        finally:
            for fd in (self.commands, self.answers):
                try:
                    os.close(fd)
                except OSError:
                    pass
            self.log.close()
            shutil.rmtree(self.profile, ignore_errors=True)


FIELDS = """Array.from(document.querySelectorAll("[data-key]")).map(e => { const r = e.getBoundingClientRect();
    const st = getComputedStyle(e); const part = c => { const x = e.querySelector(c); return x ? x.innerText : null; };
    const card = e.closest("article");
    return {key: e.dataset.key, area: e.dataset.area || null, card: card ? card.id : null, y: r.y, label: part(".label"),
            value: part(".value"), visible: st.display !== "none" && st.visibility !== "hidden" && r.width > 0 && r.height > 0}; })"""


def check(url, width, height, mobile, elements, screenshot, scale=1, fields=False, user_agent=None, accept_language=None):
    browser = Browser()
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.call(f"{domain}.enable")
        browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale, mobile=mobile)
        if mobile:
            browser.call("Emulation.setTouchEmulationEnabled", enabled=True)
        if user_agent or accept_language:
            agent = user_agent or browser.call("Runtime.evaluate", expression="navigator.userAgent", returnByValue=True)["result"]["value"]
            languages = {"acceptLanguage": accept_language} if accept_language else {}
            browser.call("Emulation.setUserAgentOverride", userAgent=agent, **languages)
        browser.call("Page.navigate", url=url)
        browser.wait_for("Page.loadEventFired")
        browser.settle()
        value = browser.call("Runtime.evaluate", expression="""JSON.stringify({
            title: document.title, lang: document.documentElement.lang, text: document.body ? document.body.innerText : "",
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
        return {"title": page["title"], "lang": page["lang"], "text": page["text"], "elements": page["rects"], "fields": page["fields"], "barcodes": barcodes,
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
    parser.add_argument("--accept-language")
    arguments = parser.parse_args()
    # One browser at a time on this machine: the test suite asks for pages from many tests at once, and several Chromiums
    # beside the suite's services and databases starved them all on two cores. The lock goes with the process.
    lock = open(os.path.join(tempfile.gettempdir(), "passmint-check-page.lock"), "a")
    fcntl.flock(lock, fcntl.LOCK_EX)
    try:
        report = check(arguments.url, arguments.width, arguments.height, arguments.mobile, arguments.element, arguments.screenshot,
                       arguments.scale, arguments.fields, arguments.user_agent, arguments.accept_language)
    except (RuntimeError, OSError) as error:
        print(f"check_page.py: {error}", file=sys.stderr)
        return 2
    json.dump(report, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
