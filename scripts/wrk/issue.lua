-- Each request issues a new loyalty card through the API (on-demand issuing).
local counter = 0
local next_id = 0
local key = os.getenv("PASSMINT_API_KEY")
local run = tostring(os.time())

-- setup runs in the main Lua state; thread:set makes `id` a global of each thread's own state.
setup = function(thread)
    thread:set("id", next_id)
    next_id = next_id + 1
end

request = function()
    counter = counter + 1
    local serial = "W" .. run .. "-" .. tostring(id) .. "-" .. tostring(counter)
    local body = '{"template":"Loyalty","data":{"serialNumber":"' .. serial .. '","memberId":"' .. tostring(counter) ..
        '","memberName":"Zoë Müller","tier":"Gold","nfcMessage":"mlc:' .. tostring(counter) ..
        '","points":1250,"pointsToNextReward":250,"memberSince":"2024-03-01T00:00:00+01:00"}}'
    return wrk.format("POST", "/api/v1/passes", {["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"}, body)
end

-- PASSMINT_BENCH_DELAY_MS paces each connection: it waits that long after each answer before the next request.
local pause = tonumber(os.getenv("PASSMINT_BENCH_DELAY_MS") or "")
if pause then
    delay = function() return pause end
end
