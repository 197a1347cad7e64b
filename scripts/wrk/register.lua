-- Each request registers a new device for the seeded pass: a durable write per request.
local counter = 0
local next_id = 0
local token = os.getenv("PASSMINT_BENCH_TOKEN")
local serial = os.getenv("PASSMINT_BENCH_SERIAL")
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
    local path = prefix .. "/v1/devices/" .. device .. "/registrations/pass.dev.passmint.example/" .. serial
    local body = '{"pushToken":"' .. string.format("%064x", counter) .. '"}'
    return wrk.format("POST", path, {["Authorization"] = "ApplePass " .. token, ["Content-Type"] = "application/json"}, body)
end
