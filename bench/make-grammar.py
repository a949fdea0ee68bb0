#!/usr/bin/env python3
"""Token sequences from a small fixed grammar, as a pp-run --dataset for a
causal language model: C of the V tokens form one fixed cycle (a random
order of a random subset), and every sequence walks it from a random
start, so each token's successor is determined by the token itself. A model
first learns which C tokens occur (the loss falls from about ln V towards
ln C), then the successor of each (towards 0). Writes IDS.npy (N x B x T,
int64: N samples of B sequences of T tokens) and LABELS.npy (N x B*T,
int32: each token's successor).

  make-grammar.py IDS.npy LABELS.npy [--samples N --batch B --tokens T
                                      --vocab V --cycle C --seed S]
"""
import argparse

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("ids")
ap.add_argument("labels")
ap.add_argument("--samples", type=int, default=64)
ap.add_argument("--batch", type=int, default=2)
ap.add_argument("--tokens", type=int, default=64)
ap.add_argument("--vocab", type=int, default=2048)
ap.add_argument("--cycle", type=int, default=64)
ap.add_argument("--seed", type=int, default=0)
a = ap.parse_args()
rng = np.random.default_rng(a.seed)
cycle = rng.choice(a.vocab, size=a.cycle, replace=False)
starts = rng.integers(0, a.cycle, size=a.samples * a.batch)
steps = np.arange(a.tokens + 1)
seqs = cycle[(starts[:, None] + steps[None, :]) % a.cycle].astype(np.int64)
np.save(a.ids, seqs[:, :-1].reshape(a.samples, a.batch, a.tokens))
np.save(a.labels,
        seqs[:, 1:].reshape(a.samples, a.batch * a.tokens).astype(np.int32))
