"""Trains the two small models of examples/model for a few steps on synthetic data (seeded, a
few seconds on a CPU) with torch 1.13, and writes into OUTDIR (argument 1):

  model.safetensors   every weight (state_dict names, float32), written by write_safetensors
                      below (torch 1.13 has no safetensors package: the format is an 8-byte
                      little-endian header length, a JSON header, then the raw bytes)
  outputs.safetensors the fixed inputs and every layer's output on them, in eval mode, as
                      torch computes them: run.lua and host.c compare ltensor's with these

The CNN: conv2d, batch_norm, relu, max_pool2d (twice), then linear. The transformer block:
token and position embeddings, layer_norm, causal self-attention (softmax(QK^T / sqrt(d)) V
with the upper triangle masked: torch 1.13 has no scaled_dot_product_attention), an MLP with
gelu, a final layer_norm and a linear head. Class indices and tokens are saved 1-based, as
ltensor takes them.
"""
import json
import math
import struct
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16 * 4 * 4, 10)

    def forward(self, x, trace=None):
        steps = [("conv1", self.conv1), ("bn1", self.bn1), ("relu1", F.relu),
                 ("pool1", lambda t: F.max_pool2d(t, 2)), ("conv2", self.conv2),
                 ("bn2", self.bn2), ("relu2", F.relu), ("pool2", lambda t: F.max_pool2d(t, 2)),
                 ("flat", lambda t: t.flatten(1)), ("fc", self.fc)]
        for name, f in steps:
            x = f(x)
            if trace is not None:
                trace["cnn." + name] = x
        return x


class Block(nn.Module):
    def __init__(self, vocab=32, dim=32, heads=4, seq=8):
        super().__init__()
        self.heads = heads
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(seq, dim) * 0.1)
        self.ln1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.ln2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 4 * dim)
        self.fc2 = nn.Linear(4 * dim, dim)
        self.lnf = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens, trace=None):
        def keep(name, t):
            if trace is not None:
                trace["block." + name] = t
            return t

        b, s = tokens.shape
        x = keep("embed", self.tok(tokens) + self.pos[:s])
        h = keep("ln1", self.ln1(x))
        q, k, v = keep("qkv", self.qkv(h)).chunk(3, dim=-1)
        d = q.shape[-1] // self.heads
        q, k, v = (t.view(b, s, self.heads, d).transpose(1, 2) for t in (q, k, v))
        causal = torch.ones(s, s, dtype=torch.bool).triu(1)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(d)
        att = keep("attn", torch.softmax(scores.masked_fill(causal, float("-inf")), -1) @ v)
        x = keep("resid1", x + self.proj(att.transpose(1, 2).reshape(b, s, -1)))
        m = keep("mlp_hidden", F.gelu(self.fc1(self.ln2(x))))
        x = keep("resid2", x + self.fc2(m))
        return keep("logits", self.head(self.lnf(x)))


def write_safetensors(path, tensors):
    """The safetensors format: the JSON header padded with spaces to a multiple of 64 bytes,
    then the tensors back to back (the format allows no holes), the int64 ones first: every
    tensor then lies at a multiple of its element size, so lt.load can map it (mmap = true)."""
    codes = {torch.float32: "F32", torch.int64: "I64"}
    header, blobs, offset = {}, [], 0
    for name, t in sorted(tensors.items(), key=lambda kv: kv[1].dtype != torch.int64):
        data = t.detach().contiguous().numpy().tobytes()
        blobs.append(data)
        header[name] = {"dtype": codes[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * ((-(8 + len(text))) % 64)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def train(model, batches, steps, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for i in range(steps):
        x, y = batches(i)
        loss = F.cross_entropy(model(x).reshape(-1, 10 if isinstance(model, CNN) else 32),
                               y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    return float(loss)


def main(outdir):
    torch.manual_seed(0)
    cnn, block = CNN(), Block()

    def images(i):  # the class: where the channel mean of the image's first row peaks
        g = torch.Generator().manual_seed(100 + i)
        x = torch.randn(16, 3, 16, 16, generator=g)
        return x, x.mean((1, 2)).flatten(1)[:, :10].argmax(1)

    def sequences(i):  # count up modulo the vocabulary: predict the next token
        g = torch.Generator().manual_seed(200 + i)
        t = (torch.randint(0, 32, (16, 1), generator=g) + torch.arange(9)) % 32
        return t[:, :8], t[:, 1:]

    cnn_loss = train(cnn, images, 30, 1e-2)
    block_loss = train(block, sequences, 30, 1e-2)
    weights = {"cnn." + k: v for k, v in cnn.state_dict().items() if "num_batches" not in k}
    weights.update({"block." + k: v for k, v in block.state_dict().items()})
    write_safetensors(outdir + "/model.safetensors", weights)

    trace = {}
    with torch.no_grad():
        x, labels = images(1000)
        x, labels = x[:4], labels[:4]
        trace["cnn.input"] = x
        logits = cnn(x, trace)
        trace["cnn.labels"] = labels + 1
        trace["cnn.loss"] = F.cross_entropy(logits, labels)
        tokens, nxt = sequences(1000)
        tokens, nxt = tokens[:2], nxt[:2]
        trace["block.tokens"] = tokens + 1
        out = block(tokens, trace)
        trace["block.targets"] = nxt + 1
        trace["block.loss"] = F.cross_entropy(out.reshape(-1, 32), nxt.reshape(-1))
    write_safetensors(outdir + "/outputs.safetensors", trace)
    print("trained: cnn loss %.4f, block loss %.4f; %d weights, %d outputs written to %s"
          % (cnn_loss, block_loss, len(weights), len(trace), outdir))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
