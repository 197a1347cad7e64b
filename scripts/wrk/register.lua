-- Each request registers a new device for the seeded pass: a durable write per request. With
-- PASSMINT_BENCH_SPREAD_COUNT=N the pass is one of SPREAD-0 … SPREAD-<N-1> (scripts/bench-seed.py) at random, as
-- members' devices arrive, instead of one pass gaining every device.
local counter = 0
local next_id = 0
local token = os.getenv("PASSMINT_BENCH_TOKEN")
local serial = os.getenv("PASSMINT_BENCH_SERIAL")
local spread = tonumber(os.getenv("PASSMINT_BENCH_SPREAD_COUNT") or "0")
local prefix = os.getenv("PASSMINT_BENCH_PREFIX") or "/wallet"
local run = tostring(os.time())

-- setup runs in the main Lua state; thread:set makes `id` a global of each thread's own state.
setup = function(thread)
    thread:set("id", next_id)
    next_id = next_id + 1
end

request = function()
    counter = counter + 1
    local device = "bench" .. run .. "t" .. tostring(id) .. "n" .. tostring(counter)
    local pass = serial
    if spread > 0 then pass = "SPREAD-" .. math.random(0, spread - 1) end
    local path = prefix .. "/v1/devices/" .. device .. "/registrations/pass.dev.passmint.example/" .. pass
    local body = '{"pushToken":"' .. string.format("%064x", counter) .. '"}'
    return wrk.format("POST", path, {["Authorization"] = "ApplePass " .. token, ["Content-Type"] = "application/json"}, body)
end
