"""A decoder-style model whose activations dominate its memory: the
examples' model for activation recomputation (docs/Recompute.md,
bench/recompute.sh). Exported to examples/decoder-long.mlir by
python/pp-import-torch (the command is in that file's header).

Two pre-norm blocks over a long sequence (128 tokens) of narrow features
(d = 32, 2 heads): causal self-attention (the mask added to the scores
before the softmax) and a GELU(tanh) MLP, each with a residual. The
weights take 68 KB (17152 floats); one micro-batch's attention scores and
probabilities alone take 256 KB per block."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads, hidden, tokens):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)
        # 0 on and below the diagonal, -1e9 above: added to the scores.
        mask = torch.triu(torch.full((tokens, tokens), -1e9), diagonal=1)
        self.register_buffer("mask", mask)

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q = q.reshape(b, t, h, d // h).transpose(1, 2)
        k = k.reshape(b, t, h, d // h).transpose(1, 2)
        v = v.reshape(b, t, h, d // h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // h) + self.mask
        y = att.softmax(dim=-1) @ v
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh"))


class Decoder(nn.Module):
    """Float inputs (batch x tokens x d) to the same shape (an MSE
    target)."""

    def __init__(self, d=32, heads=2, hidden=64, layers=2, tokens=128):
        super().__init__()
        self.layers = nn.ModuleList(Block(d, heads, hidden, tokens)
                                    for _ in range(layers))
        self.ln = nn.LayerNorm(d)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.ln(x)


def decoder():
    return Decoder()
