"""Test helpers for netlm's notebooks: not part of the package (notebooks import it with `from testkit import ...`)."""

import functools
from pathlib import Path

import numpy as np

from netlm.decoding import tree_mask
from netlm.measurements import Measurements
from netlm.metrics import QUANTILE_GRID, crps_from_quantiles, pit_values
from netlm.tokenizer import VOCAB_SIZE


# ---- toy models for the decoding and inference tests --------------------------------------------------------------


class TableModel:
    "A toy model: next-token log-probs chosen by the previous token from a table {prev: {token: p}}."

    def __init__(self, table: dict, default: dict | None = None):
        self.table, self.default = table, default or {}

    def __call__(self, tokens, lengths):
        "Log-probs (B, V) of the token after each prompt `tokens[b, :lengths[b]]` (a `next_logprobs` function)."
        last = np.asarray(tokens)[np.arange(len(tokens)), np.asarray(lengths) - 1]
        out = np.full((len(last), VOCAB_SIZE), -30.0)
        for i, t in enumerate(last):
            for tok, p in self.table.get(int(t), self.default).items(): out[i, tok] = np.log(p)
        return out

    def tree(self, tokens, positions, chain, leaf, read):
        "The same model read at the `read` points of packed rows (a `tree_logprobs` function; it only looks there)."
        B, R = read.shape
        flat = np.take_along_axis(np.asarray(tokens), read, 1).ravel()
        return self(flat[:, None], np.ones(len(flat), np.int64)).reshape(B, R, VOCAB_SIZE)


def _prompts_logprobs(next_logprobs, prompts: list) -> np.ndarray:
    "`next_logprobs` of right-padded prompts, in shapes rounded up to powers of two (few compilations when jitted)."
    rows = int(2 ** np.ceil(np.log2(len(prompts))))
    lengths = np.ones(rows, np.int64)
    lengths[:len(prompts)] = [len(p) for p in prompts]
    tokens = np.zeros((rows, int(2 ** np.ceil(np.log2(max(lengths.max(), 16))))), np.int32)
    for i, p in enumerate(prompts): tokens[i, :len(p)] = p
    return np.asarray(next_logprobs(tokens, lengths))[:len(prompts)]


def prompt_tree(next_logprobs, batch_size: int = 64):
    """A `tree_logprobs` function that reads every point of packed rows as a prompt of its own (the tokens the point
    sees, in order) through `next_logprobs(tokens, lengths) -> (B, V)`: the one-prompt-per-query reference that the
    packed decoder must match."""
    def tree_logprobs(tokens, positions, chain, leaf, read):
        tokens, positions, read = np.asarray(tokens), np.asarray(positions), np.asarray(read)
        seen = tree_mask(np.asarray(chain), np.asarray(leaf))[:, 0]                          # (B, T, T)
        prompts = []
        for b, r in np.ndindex(read.shape):
            sees = seen[b, read[b, r]]
            # what a point sees is a prompt: positions 0, 1, ... in row order
            assert np.array_equal(positions[b][sees], np.arange(sees.sum())), (b, r)
            prompts.append(tokens[b][sees])
        out = [_prompts_logprobs(next_logprobs, prompts[a:a + batch_size]) for a in range(0, len(prompts), batch_size)]
        return np.concatenate(out).reshape(*read.shape, -1)
    return tree_logprobs


@functools.cache
def _next_logprobs_fn(graphdef):
    import jax, jax.numpy as jnp
    from flax import nnx

    @jax.jit
    def fn(state, tokens, lengths):
        mask = jnp.arange(tokens.shape[1])[None, :] < lengths[:, None]
        logits = nnx.merge(graphdef, state)(tokens, segment_ids=mask.astype(jnp.int32))            # (B, T, V)
        last = jnp.take_along_axis(logits, (lengths - 1)[:, None, None], axis=1)[:, 0]           # (B, V)
        return jax.nn.log_softmax(last.astype(jnp.float32), axis=-1)
    return fn


def model_next_logprobs(model):
    """A `next_logprobs(tokens, lengths) -> (B, V)` function of a `netlm.model.Transformer` (padding its own segment):
    what an export's `next_logprobs` computes, and with `prompt_tree` the reference of the packed decoder."""
    import jax.numpy as jnp
    from flax import nnx
    graphdef, state = nnx.split(model)
    fn = _next_logprobs_fn(graphdef)
    as_device = lambda a: jnp.asarray(a, jnp.int32)
    return lambda tokens, lengths: np.asarray(fn(state, as_device(tokens), as_device(lengths)))


# ---- known-answer worlds, a reference score, the shared data ------------------------------------------------------


def plane_world(n_hosts: int = 60, n_pairs: int = 1500, seed: int = 0, noise: float = 0.0):
    "Hosts on a 200x200 ms plane with heights; measurements of random pairs (a known answer for baselines)."
    rng = np.random.default_rng(seed)
    pos, height = rng.uniform(0, 200, (n_hosts, 2)), rng.uniform(1, 10, n_hosts)
    names = np.array([f'10.0.{k // 256}.{k % 256}' for k in range(n_hosts)], dtype=object)
    i, j = rng.integers(0, n_hosts, n_pairs), rng.integers(0, n_hosts, n_pairs)
    i, j = i[i != j], j[i != j]
    rtt = np.linalg.norm(pos[i] - pos[j], axis=1) + height[i] + height[j]
    rtt = rtt * (1 + noise * rng.standard_normal(len(rtt)))
    return Measurements(names[i], names[j], np.arange(len(i)), rtt), pos, height, names


def distribution_metrics(quantiles, true_ms, levels=QUANTILE_GRID) -> dict:
    "CRPS and calibration (PIT histogram and its largest deviation from uniform) on successful pings."
    y = np.asarray(true_ms, np.float64)
    ok = y >= 0
    crps = crps_from_quantiles(np.asarray(quantiles)[ok], y[ok], levels)
    pit = pit_values(np.asarray(quantiles)[ok], y[ok], levels)
    hist = np.histogram(pit, bins=10, range=(0, 1))[0] / max(len(pit), 1)
    return dict(crps_ms=float(crps.mean()), pit_hist=hist.round(4).tolist(),
                calibration_error=float(np.abs(hist - 0.1).max()))


REPO = Path(__file__).resolve().parent.parent        # nbs/ is in the repository; ../shared sits next to it
MENOG_SAMPLE = 'atlas/menog/menog_ping_results_dev.jsonl.gz'


def shared_data(relpath) -> Path | None:
    "`../shared/data/relpath` next to the repository, or None when it is not there (the test then skips)."
    path = REPO.parent / 'shared' / 'data' / relpath
    return path if path.exists() else None
