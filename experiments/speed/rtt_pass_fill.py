"""Build experiments/speed/rtt_pass_fill.json: where the RTT question's time goes in the prefix engine (each model
call's shape, time, and how full its slots and tokens are), and one variant not kept: the prefix part of
`prefix_attention` (nbs/14_model) computed in chunks of queries (`lax.map`, an online softmax joining the parts), so
that a chunk's scores stay in the cache instead of a (G, H, S * L, P) float32 matrix per layer.

Each arm runs in `PROCESSES` fresh processes (the bench world and questions of `netlm bench predict`'s defaults: 12
probes, 505 RTT questions on 40 contexts); each process answers the RTT questions `PASSES` times, the decoder's kept
keys and values forgotten before each pass, the first pass compiling. On the 2-core machine, nothing else running.
From the repository root: `python -m experiments.speed.rtt_pass_fill experiments/speed/rtt_pass_fill.json`."""
import collections, functools, json, os, subprocess, sys, tempfile, time
from pathlib import Path

import numpy as np

ARMS = ('shipped', 'chunks128', 'chunks256')
PROCESSES, PASSES = 3, 4


def chunked_attention(chunk: int):
    "`prefix_attention` with its prefix part in chunks of `chunk` queries (the variant; the same answers)."
    import jax, jax.numpy as jnp

    def attention(q, k, v, visible, weight=None, own=None, prefix=None, kept=None):
        G, S, L, H, D = q.shape
        w = None if weight is None else weight.astype(jnp.float32)
        bias = lambda s, match: s if w is None else s + w[:, None, None] * match[:, :, None]
        parts = []
        s = bias(jnp.einsum('gsthd,gsuhd->gshtu', q, k).astype(jnp.float32) * D ** -0.5, own)
        parts.append((jnp.where(visible[:, :, None], s, -jnp.inf), v, 'gshtu,gsuhd->gsthd'))
        if kept is not None:
            sk = bias(jnp.einsum('gsthd,gsmhd->gshtm', q, kept['k']).astype(jnp.float32) * D ** -0.5, kept.get('own'))
            parts.append((jnp.where(kept['visible'][:, :, None], sk, -jnp.inf), kept['v'], 'gshtm,gsmhd->gsthd'))
        top = functools.reduce(jnp.maximum, [a.max(-1) for a, _, _ in parts])          # (G, S, H, L)
        total, out = 0.0, 0.0
        for a, x, spec in parts:
            e = jnp.exp(a - top[..., None])
            total, out = total + e.sum(-1), out + jnp.einsum(spec, e.astype(x.dtype), x)
        if prefix is not None:
            Q = S * L
            C = Q // chunk if Q % chunk == 0 and Q > chunk else 1
            n = Q // C
            qc = q.reshape(G, C, n, H, D).transpose(1, 0, 2, 3, 4)                       # (C, G, n, H, D)
            cross = (jnp.zeros((C, G, n, 1), bool) if w is None
                     else prefix['cross'].reshape(G, C, n, -1).transpose(1, 0, 2, 3))

            def one(args):
                qq, cc = args
                sp = jnp.einsum('gqhd,gphd->ghqp', qq, prefix['k']).astype(jnp.float32) * D ** -0.5
                if w is not None: sp = sp + w[None, :, None, None] * cc[:, None]
                sp = jnp.where(prefix['valid'][:, None, None, :], sp, -jnp.inf)
                m = sp.max(-1)
                e = jnp.exp(sp - m[..., None])
                return m, e.sum(-1), jnp.einsum('ghqp,gphd->gqhd', e.astype(prefix['v'].dtype), prefix['v'])

            m, l, o = jax.lax.map(one, (qc, cross))
            back = lambda a: a.transpose(1, 2, 0, 3).reshape(G, H, S, L).transpose(0, 2, 1, 3)   # (G, S, H, L)
            m, l, o = back(m), back(l), o.transpose(1, 0, 2, 3, 4).reshape(G, S, L, H, D)
            new = jnp.maximum(top, m)
            a, b = jnp.exp(top - new), jnp.exp(m - new)
            total = total * a + l * b
            out = out * a.transpose(0, 1, 3, 2)[..., None] + o * b.transpose(0, 1, 3, 2)[..., None]
        return (out / total.transpose(0, 1, 3, 2)[..., None]).astype(v.dtype)
    return attention


def child(arm: str) -> dict:
    "One process of `arm`: the RTT questions' passes (questions/s) and the last pass's calls."
    import jax
    import netlm.benchmarks as B, netlm.decoding as D, netlm.model as M
    if arm != 'shipped': M.prefix_attention = chunked_attention(int(arm.removeprefix('chunks')))
    with tempfile.TemporaryDirectory() as tmp:
        world = B.generate(Path(tmp) / 'world', probes=12, days=0.5, seed=0, progress=False)
        B.build_probe_rows(world['path'], Path(tmp) / 'rows', progress=False)
        test = B.Measurements.concat([B.load_split(Path(tmp) / 'rows', s) for s in B.SPLITS
                                      if (Path(tmp) / 'rows' / s).is_dir()])
    proto = B.make_protocol(test, n_context=30, max_queries=600, seed=0)
    predictor = B._bench_predictor('base', 'prefix')
    tree, calls = predictor.tree, []
    run = D.PrefixDecoder._run

    def timed_run(self, P, L, N, S, G, part, suffixes, kept, answers):
        t0 = time.perf_counter(); run(self, P, L, N, S, G, part, suffixes, kept, answers)
        calls.append(dict(shape=[P, L, N, S, G], ms=(time.perf_counter() - t0) * 1000,
                          slots_used=sum(len(m) for _, m in part), slots=G * S,
                          new_tokens=sum(len(suffixes[i][1]) - (kept[i] if N is not None else 0) for _, m in part for i in m),
                          padded_tokens=G * S * (N or L)))
    D.PrefixDecoder._run = timed_run
    prefill = tree.prefill_fn
    prefills = []

    def timed_prefill(*a):
        t0 = time.perf_counter(); out = jax.block_until_ready(prefill(*a)); prefills.append((time.perf_counter() - t0) * 1000)
        return out
    tree.prefill_fn = timed_prefill
    rates, answers = [], None
    for _ in range(PASSES):
        calls.clear(); prefills.clear(); tree.cache.clear(); tree.sizes.clear()
        t0 = time.perf_counter(); got = predictor.predict_many(proto.queries, proto.context)
        rates.append(len(proto.queries) / (time.perf_counter() - t0))
        answers = [float(d.median_ms) for d in got]
    return dict(arm=arm, questions=len(proto.queries), questions_per_s=rates, calls=list(calls), prefill_ms=list(prefills),
                medians=answers, backend=jax.default_backend())


def summary(runs: list[dict]) -> dict:
    "Per arm: the timed passes' questions/s (every pass but each process's first) and the last pass's calls by shape."
    timed = sorted(r for run in runs for r in run['questions_per_s'][1:])
    by_shape = collections.defaultdict(list)
    for c in runs[-1]['calls']: by_shape[tuple(c['shape'])].append(c)
    shapes = [dict(trunk=P, length=L, new=N, slots_per_trunk=S, trunks=G, calls=len(cs),
                   ms_mean=round(float(np.mean([c['ms'] for c in cs])), 1),
                   slot_fill=round(sum(c['slots_used'] for c in cs) / sum(c['slots'] for c in cs), 3),
                   token_fill=round(sum(c['new_tokens'] for c in cs) / sum(c['padded_tokens'] for c in cs), 3))
              for (P, L, N, S, G), cs in sorted(by_shape.items(), key=lambda kv: str(kv[0]))]
    last = runs[-1]
    pass_s = last['questions'] / last['questions_per_s'][-1]
    return dict(processes=len(runs), timed_passes=len(timed), median_per_s=round(float(np.median(timed)), 1),
                range_per_s=[round(timed[0], 1), round(timed[-1], 1)],
                last_pass=dict(seconds=round(pass_s, 3), prefill_calls=len(last['prefill_ms']),
                               prefill_s=round(sum(last['prefill_ms']) / 1000, 3),
                               extend_s=round(sum(c['ms'] for c in last['calls']) / 1000, 3), calls=shapes))


def main(out):
    from experiments.common import git
    from experiments.speed.answers_cpu import cpu
    runs = {arm: [] for arm in ARMS}
    for p in range(PROCESSES):
        for arm in ARMS:               # arms in turn, so that a slow spell of the machine falls on all of them
            r = subprocess.run([sys.executable, '-m', 'experiments.speed.rtt_pass_fill', '--child', arm],
                               capture_output=True, text=True, check=True)
            runs[arm].append(json.loads(r.stdout.strip().splitlines()[-1]))
            print(arm, p, [round(x, 1) for x in runs[arm][-1]['questions_per_s']], flush=True)
    ref = np.array(runs['shipped'][-1]['medians'])
    arms = {arm: summary(rs) | dict(largest_median_difference_ms=float(np.abs(np.array(rs[-1]['medians']) - ref).max()))
            for arm, rs in runs.items()}
    record = dict(what="The RTT question's model calls in the prefix engine (time, shape, fill), and the prefix part of "
                       "the attention in chunks of queries (a variant)", date=time.strftime('%Y-%m-%d'), issue=66,
                  machine=cpu(), commit=git('rev-parse', 'HEAD'), backend=runs['shipped'][0]['backend'],
                  protocol=f'{PROCESSES} processes per arm, {PASSES} passes each (the first compiles, not counted)',
                  arms=arms, record='python -m experiments.speed.rtt_pass_fill experiments/speed/rtt_pass_fill.json')
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    for arm, s in arms.items(): print(arm, s['median_per_s'], s['range_per_s'], s['largest_median_difference_ms'])


if __name__ == '__main__':
    if sys.argv[1] == '--child': print(json.dumps(child(sys.argv[2])))
    else: main(sys.argv[1])
