"""One RTT call of the prefix engine timed with parts of its attention left out (experiments/speed/attention_parts.json's
`rtt_call_ms`): the bench's first call of shape (prefix 512, suffix 64, 16 new tokens, 16 slots, 4 trunks) is
captured, then timed 20 times as it is and with the RTT bias, the prefix, the kept start or the whole attention left
out. From the repository root, with PYTHONPATH on a worktree of the commit to measure:
`python experiments/speed/rtt_call_parts.py`."""
import time
import jax, numpy as np
import netlm.benchmarks as B, netlm.decoding as D, netlm.model as M

WANT, captured = (512, 64, 16, 16, 4), {}
_run = D.PrefixDecoder._run


def run(self, P, L, N, S, G, *rest):
    if (P, L, N, S, G) == WANT and not captured:
        orig = self.extend_fn
        def spy(*args):
            captured.update(args=jax.tree.map(np.asarray, args), graphdef=self.graphdef)
            return orig(*args)
        self.extend_fn = spy
        try: return _run(self, P, L, N, S, G, *rest)
        finally: self.extend_fn = orig
    return _run(self, P, L, N, S, G, *rest)


def timed(name, n=20):
    fn = D._prefix_fns.__wrapped__(captured['graphdef'])[1]          # traced afresh: with the attention as patched
    jax.block_until_ready(fn(*captured['args']))
    t = time.perf_counter()
    for _ in range(n): jax.block_until_ready(fn(*captured['args']))
    print(f'{name:45s} {(time.perf_counter() - t) / n * 1000:6.1f} ms')


if __name__ == '__main__':
    D.PrefixDecoder._run = run
    B._per_s = lambda predictor, fn, groups, count: (None if captured else fn(groups), (0.0, []))[1]
    B.bench_predict(probes=12, queries=600)
    attention = M.prefix_attention
    drop = lambda d, key: None if d is None else {k: v for k, v in d.items() if k != key}
    variants = {'the whole call': attention,
                'without the RTT bias': lambda q, k, v, vis, w=None, own=None, prefix=None, kept=None:
                    attention(q, k, v, vis, None, None, drop(prefix, 'cross'), drop(kept, 'own')),
                'without the prefix': lambda q, k, v, vis, w=None, own=None, prefix=None, kept=None:
                    attention(q, k, v, vis, w, own, None, kept),
                "the suffix's own tokens only, no bias": lambda q, k, v, vis, *a, **kw: attention(q, k, v, vis),
                'no attention (projections, MLP, head)': lambda q, *a, **kw: q}
    for name, fn in variants.items():
        M.prefix_attention = fn; timed(name)
    M.prefix_attention = attention
