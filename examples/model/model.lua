-- examples/model/model.lua -- the two models of train.py, written with lt.nn.functional: the
-- recipe for running a PyTorch-trained model in a Lua host. load() maps the weights that
-- train.py saved (lt.load with mmap: the tensors share the file's pages, nothing is copied);
-- cnn() and block() are the forward passes (eval mode), keeping every layer's output in
-- `trace` when given one, under the names train.py saved torch's under; compare() checks one
-- output against torch's. Used by run.lua and by host.c (which pushes its own input).
local lt = require "ltensor"
local F = lt.nn.functional

local M = {}

-- The weights of model.safetensors in dir: a table of name -> read-only mapped tensor.
function M.load(dir)
  return (lt.load(dir .. "/model.safetensors", { mmap = true }))
end

-- keep(name, t): t, kept in trace (when given) as prefix .. name.
local function keeper(trace, prefix)
  return function(name, t)
    if trace then trace[prefix .. name] = t end
    return t
  end
end

-- The CNN: 3 x 16 x 16 images to 10 logits.
function M.cnn(w, x, trace)
  local keep = keeper(trace, "cnn.")
  local function bn(t, p)
    return F.batch_norm(t, w[p .. ".running_mean"], w[p .. ".running_var"], w[p .. ".weight"],
      w[p .. ".bias"], false, 0.1, 1e-5)
  end
  x = keep("conv1", F.conv2d(x, w["cnn.conv1.weight"], w["cnn.conv1.bias"], 1, 1))
  x = keep("bn1", bn(x, "cnn.bn1"))
  x = keep("relu1", F.relu(x))
  x = keep("pool1", F.max_pool2d(x, 2))
  x = keep("conv2", F.conv2d(x, w["cnn.conv2.weight"], w["cnn.conv2.bias"], 1, 1))
  x = keep("bn2", bn(x, "cnn.bn2"))
  x = keep("relu2", F.relu(x))
  x = keep("pool2", F.max_pool2d(x, 2))
  x = keep("flat", x:flatten(2))
  return keep("fc", F.linear(x, w["cnn.fc.weight"], w["cnn.fc.bias"]))
end

-- The transformer block: B x S tokens (1-based) to B x S x 32 next-token logits.
function M.block(w, tokens, trace)
  local keep = keeper(trace, "block.")
  local function ln(t, p) return F.layer_norm(t, { 32 }, w[p .. ".weight"], w[p .. ".bias"]) end
  local function linear(t, p) return F.linear(t, w[p .. ".weight"], w[p .. ".bias"]) end
  local b, s, heads = tokens:size(1), tokens:size(2), 4
  local x = keep("embed", F.embedding(tokens, w["block.tok.weight"]) + w["block.pos"]:narrow(1, 1, s))
  local h = keep("ln1", ln(x, "block.ln1"))
  local q, k, v = table.unpack(keep("qkv", linear(h, "block.qkv")):chunk(3, -1))
  local d = q:size(3) // heads
  local function split(t) return t:reshape(b, s, heads, d):transpose(2, 3) end
  local att = keep("attn", F.scaled_dot_product_attention(split(q), split(k), split(v), nil, 0, true))
  x = keep("resid1", x + linear(att:transpose(2, 3):reshape(b, s, -1), "block.proj"))
  local m = keep("mlp_hidden", F.gelu(linear(ln(x, "block.ln2"), "block.fc1")))
  x = keep("resid2", x + linear(m, "block.fc2"))
  return keep("logits", linear(ln(x, "block.lnf"), "block.head"))
end

-- The largest difference of got from want, relative to want's largest magnitude (float32
-- sums in another order differ in their last bits, which an elementwise relative test would
-- magnify at the values near 0); raises when the shapes differ.
function M.error(got, want)
  local gs, ws = table.concat(got.shape, "x"), table.concat(want.shape, "x")
  if gs ~= ws then error(("shape %s, torch's %s"):format(gs, ws)) end
  if got:numel() == 0 then return 0 end
  local g, t = got:double(), want:double()
  local scale = t:abs():max()
  return (g - t):abs():max() / (scale > 0 and scale or 1)
end

return M
