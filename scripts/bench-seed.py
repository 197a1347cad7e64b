#!/usr/bin/env python3
"""Seeds a running `passmint serve` for scripts/wrk/spread.lua: COUNT Loyalty passes SPREAD-<i> (all with TOKEN), and
a device spread<i> registered for each. Prints the HTTP-date to send as If-Modified-Since (now, after the last pass).
    scripts/bench-seed.py PORT COUNT TOKEN"""
import http.client, json, os, sys, time
from email.utils import formatdate

port, count, token = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
key = os.environ["PASSMINT_API_KEY"]
template = json.load(open(os.path.join(os.path.dirname(__file__), "..", "PassTemplates", "Loyalty.json")))
connection = http.client.HTTPConnection("127.0.0.1", port)

def call(method, path, body, headers):
    connection.request(method, path, body=json.dumps(body), headers=dict(headers, **{"Content-Type": "application/json"}))
    response = connection.getresponse()
    response.read()
    if response.status not in (200, 201):
        sys.exit(f"{method} {path}: HTTP {response.status}")

for i in range(count):
    data = dict(template, serialNumber=f"SPREAD-{i}", authenticationToken=token, memberId=str(i))
    call("POST", "/api/v1/passes", {"template": "Loyalty", "data": data}, {"Authorization": f"Bearer {key}", "Accept": "application/json"})
    call("POST", f"/wallet/v1/devices/spread{i}/registrations/pass.dev.passmint.example/SPREAD-{i}", {"pushToken": f"{i:064x}"},
         {"Authorization": f"ApplePass {token}"})
time.sleep(1.1)  # If-Modified-Since must not be older than the last pass's whole second
print(formatdate(time.time(), usegmt=True))
