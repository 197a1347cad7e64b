-- Requests spread over many seeded devices or passes (scripts/bench-seed.py), so that answers come from many cache
-- entries instead of one:
--   PASSMINT_BENCH_SPREAD=poll   GET the serial-number poll of a random device spread<i>
--   PASSMINT_BENCH_SPREAD=pass   GET pass SPREAD-<i> with If-Modified-Since (a 304)
local kind = os.getenv("PASSMINT_BENCH_SPREAD") or "poll"
local count = tonumber(os.getenv("PASSMINT_BENCH_SPREAD_COUNT") or "2000")
local token = os.getenv("PASSMINT_BENCH_TOKEN")
local since = os.getenv("PASSMINT_BENCH_SINCE")
local prefix = os.getenv("PASSMINT_BENCH_PREFIX") or "/wallet"
local type = "pass.dev.passmint.example"

request = function()
    local i = math.random(0, count - 1)
    if kind == "pass" then
        return wrk.format("GET", prefix .. "/v1/passes/" .. type .. "/SPREAD-" .. i,
                          {["Authorization"] = "ApplePass " .. token, ["If-Modified-Since"] = since})
    end
    return wrk.format("GET", prefix .. "/v1/devices/spread" .. i .. "/registrations/" .. type)
end
