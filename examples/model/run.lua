-- examples/model/run.lua -- runs the two models train.py trained with torch 1.13 on the inputs
-- it saved, with lt.nn.functional (model.lua), and compares every layer's output and the
-- losses with torch's: float32 within 1e-5 of each layer's largest magnitude (model.lua says
-- why that scale). Exits nonzero on a mismatch.
--
-- Usage: lua5.4 examples/model/run.lua DIR   (DIR: where train.py wrote its two files)
local dir = arg[1] or "."
package.path = (arg[0]:match("^(.*)[/\\]") or ".") .. "/?.lua;" .. package.path
local lt = require "ltensor"
local F = lt.nn.functional
local model = require "model"

local RTOL = 1e-5
local w = model.load(dir)
local want = lt.load(dir .. "/outputs.safetensors", { mmap = true })

local trace = {}
local logits = model.cnn(w, want["cnn.input"], trace)
trace["cnn.loss"] = F.cross_entropy(logits, want["cnn.labels"])
local out = model.block(w, want["block.tokens"], trace)
trace["block.loss"] = F.cross_entropy(out:reshape(-1, 32), want["block.targets"]:reshape(-1))

local names, failed = {}, 0
for name in pairs(want) do
  if not name:match("%.input$") and not name:match("%.labels$") and not name:match("%.tokens$")
    and not name:match("%.targets$") then
    names[#names + 1] = name
  end
end
table.sort(names)
for _, name in ipairs(names) do
  local ok, err = pcall(model.error, assert(trace[name], name .. ": not computed"), want[name])
  local pass = ok and err <= RTOL
  if not pass then failed = failed + 1 end
  print(("%-20s %s  %s"):format(name, pass and "ok  " or "FAIL",
    ok and ("max error %.2e of its scale"):format(err) or err))
end
print(("%d outputs compared with torch's, %d failed"):format(#names, failed))
os.exit(failed == 0 and 0 or 1)
