"""Small PyTorch models for pp-import-torch (docs/Frontends.md): the
factories that integration_test/pp-run/torch-export.test exports and that
produced the committed Inputs/torch/*.mlir."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp_relu():
    """Linear-ReLU-Linear-ReLU-Linear, 32 -> 64 -> 64 -> 10."""
    return nn.Sequential(nn.Linear(32, 64), nn.ReLU(),
                         nn.Linear(64, 64), nn.ReLU(),
                         nn.Linear(64, 10))


def mlp_gelu_ln():
    """Linear-LayerNorm-GELU(tanh) twice, then Linear: 32 -> 64 -> 64 -> 10."""
    return nn.Sequential(nn.Linear(32, 64), nn.LayerNorm(64),
                         nn.GELU(approximate="tanh"),
                         nn.Linear(64, 64), nn.LayerNorm(64),
                         nn.GELU(approximate="tanh"),
                         nn.Linear(64, 10))


class Block(nn.Module):
    """Pre-norm transformer block: multi-head self-attention (no mask), then
    a GELU(tanh) MLP, each with a residual."""

    def __init__(self, d, heads, hidden):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)

    def forward(self, x):
        b, t, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=-1)
        q = q.reshape(b, t, h, d // h).transpose(1, 2)
        k = k.reshape(b, t, h, d // h).transpose(1, 2)
        v = v.reshape(b, t, h, d // h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // h)
        y = att.softmax(dim=-1) @ v
        x = x + self.proj(y.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh"))


class Transformer(nn.Module):
    """Two blocks on float inputs (batch x tokens x d), output the same
    shape (an MSE target)."""

    def __init__(self, d=16, heads=2, hidden=32, layers=2):
        super().__init__()
        self.layers = nn.ModuleList(Block(d, heads, hidden)
                                    for _ in range(layers))
        self.ln = nn.LayerNorm(d)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.ln(x)


def transformer():
    return Transformer()


class TinyLM(nn.Module):
    """Token ids (batch x tokens, i64) -> logits ((batch*tokens) x vocab):
    an embedding, two blocks, and an output head tied to the embedding
    (one tensor under two names)."""

    def __init__(self, vocab=32, d=16, heads=2, hidden=32, layers=2,
                 tokens=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(tokens, d) * 0.02)
        self.layers = nn.ModuleList(Block(d, heads, hidden)
                                    for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, ids):
        x = self.embed(ids) + self.pos
        for layer in self.layers:
            x = layer(x)
        logits = self.head(self.ln(x))
        return logits.reshape(-1, logits.shape[-1])


def tiny_lm():
    return TinyLM()


def conv_bn():
    """Conv2d-BatchNorm2d-ReLU-AdaptiveAvgPool2d-Linear on 1x8x8 images:
    exported with --train-mode, batch norm normalizes by each micro-batch's
    statistics (ResNet's blocks, in small)."""
    return nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4),
                         nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Linear(4, 3))


class FlatLogits(nn.Module):
    """A transformers causal LM whose logits come out as (tokens, vocabulary),
    what cross-entropy against one label per token takes."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, ids):
        logits = self.model(ids).logits
        return logits.reshape(-1, logits.shape[-1])


def gpt2(n_layer=2, n_embd=16, n_head=2, vocab_size=32, n_positions=8, seed=0):
    """transformers' GPT2LMHeadModel from a config, random weights (no
    download), eager attention, no dropout; its embedding and LM head are
    tied (transformers ties them)."""
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(seed)
    config = GPT2Config(n_layer=n_layer, n_embd=n_embd, n_head=n_head,
                        vocab_size=vocab_size, n_positions=n_positions,
                        attn_pdrop=0.0, embd_pdrop=0.0, resid_pdrop=0.0,
                        bos_token_id=0, eos_token_id=0)
    config._attn_implementation = "eager"
    model = GPT2LMHeadModel(config)
    model.eval()
    return FlatLogits(model)


def llama(num_hidden_layers=2, hidden_size=32, num_attention_heads=4,
          num_key_value_heads=2, intermediate_size=64, vocab_size=64,
          max_position_embeddings=16, seed=0):
    """transformers' LlamaForCausalLM from a config, random weights (no
    download): RMSNorm, rotary embeddings, SwiGLU MLP, grouped-query
    attention (4 query heads share 2 key-value heads), eager attention, an
    untied LM head."""
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(seed)
    config = LlamaConfig(num_hidden_layers=num_hidden_layers,
                         hidden_size=hidden_size,
                         num_attention_heads=num_attention_heads,
                         num_key_value_heads=num_key_value_heads,
                         intermediate_size=intermediate_size,
                         vocab_size=vocab_size,
                         max_position_embeddings=max_position_embeddings,
                         tie_word_embeddings=False, attention_dropout=0.0,
                         use_cache=False, bos_token_id=0, eos_token_id=0,
                         pad_token_id=None)
    config._attn_implementation = "eager"
    model = LlamaForCausalLM(config)
    model.eval()
    return FlatLogits(model)


def resnet18(num_classes=10, seed=0):
    """torchvision's ResNet-18, random weights (no download), for
    --train-mode (batch norm by each micro-batch's statistics)."""
    import torchvision

    torch.manual_seed(seed)
    return torchvision.models.resnet18(num_classes=num_classes)
