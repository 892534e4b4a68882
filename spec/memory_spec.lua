-- The garbage collector sees tensor memory: dropping big tensors in a loop stays bounded.
local lt = require "ltensor"

local helpers = require "helpers"

local function peak_rss_kb() return helpers.status_kb("VmHWM") end

describe("memory the garbage collector sees", function()
  it("keeps peak RSS under 1 GiB while 200 tensors of 64 MiB are made and dropped", function()
    local before = peak_rss_kb()
    local sum = 0
    for i = 1, 200 do
      local t = lt.ones(16 * 1024 * 1024) -- 64 MiB of float32, every page written
      t[i] = 2
      sum = sum + t[i] + t[-1]
    end
    local peak = peak_rss_kb()
    assert.equal(600, sum)
    assert.is_true(peak < 1024 * 1024,
      ("peak RSS %d MiB (was %d MiB before the loop)"):format(peak // 1024, before // 1024))
  end)
end)
