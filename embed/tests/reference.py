"""Reference embeddings for embed/tests/model.rs, computed independently of candle.

A plain NumPy forward pass of the BERT encoder over the same safetensors weights, with the
Python `tokenizers` package reading the same tokenizer.json (truncation 256, no padding, one text
at a time), mean pooling and L2 normalisation. Run once, by hand, and paste its output into
model.rs:

    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install numpy tokenizers safetensors
    /tmp/ref/bin/python embed/tests/reference.py ~/.cache/needl/models/all-minilm-l6-v2
"""
import json
import math
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

TEXTS = [
    "The central bank raised interest rates by 50 basis points to curb inflation.",
    "Acme Corp agreed to acquire Widget Inc for $2 billion in cash.",
    "The striker scored twice as the home side won the cup final.",
]


def layer_norm(x, w, b, eps):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def gelu(x):
    # The exact (erf) GELU BERT uses.
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def embed(dirname, text):
    cfg = json.load(open(f"{dirname}/config.json"))
    w = {k: v.astype(np.float64) for k, v in load_file(f"{dirname}/model.safetensors").items()}
    tok = Tokenizer.from_file(f"{dirname}/tokenizer.json")
    tok.no_padding()
    tok.enable_truncation(256)
    ids = tok.encode(text).ids
    n, h, heads = len(ids), cfg["hidden_size"], cfg["num_attention_heads"]
    eps = cfg["layer_norm_eps"]
    x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n] \
        + w["embeddings.token_type_embeddings.weight"][0]
    x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
    d = h // heads
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        lin = lambda y, name: y @ w[p + name + ".weight"].T + w[p + name + ".bias"]
        q = lin(x, "attention.self.query").reshape(n, heads, d).transpose(1, 0, 2)
        k = lin(x, "attention.self.key").reshape(n, heads, d).transpose(1, 0, 2)
        v = lin(x, "attention.self.value").reshape(n, heads, d).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / np.sqrt(d)
        s = np.exp(s - s.max(-1, keepdims=True))
        s /= s.sum(-1, keepdims=True)
        a = (s @ v).transpose(1, 0, 2).reshape(n, h)
        x = layer_norm(lin(a, "attention.output.dense") + x, w[p + "attention.output.LayerNorm.weight"],
                       w[p + "attention.output.LayerNorm.bias"], eps)
        f = lin(gelu(lin(x, "intermediate.dense")), "output.dense")
        x = layer_norm(f + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], eps)
    e = x.mean(0)
    return e / np.linalg.norm(e)


if __name__ == "__main__":
    vecs = [embed(sys.argv[1], t) for t in TEXTS]
    for t, e in zip(TEXTS, vecs):
        print(json.dumps(t), "first 8:", ", ".join(f"{v:.6f}" for v in e[:8]))
    for i in range(len(vecs)):
        for j in range(i + 1, len(vecs)):
            print(f"cos({i},{j}) = {float(vecs[i] @ vecs[j]):.6f}")
