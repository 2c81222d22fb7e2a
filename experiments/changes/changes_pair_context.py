"""Build experiments/changes_pair_context.json (C1) from the runs its rule names; run from the repository root:
`python nbs/experiments/changes_pair_context.py nbs/experiments/changes_pair_context.json`. The model's scores are
cached in runs/chg/ (val_pair.npz, val_probe.npz, test_pair.npz); without them they are computed (about 4 + 4 + 6
minutes on two CPU cores)."""
import itertools, json, platform, subprocess, sys, time
from pathlib import Path
import numpy as np
import pyarrow.compute as pc
from netlm.changes import (detect_changes, match_changes, pelt_changes, pit_z, read_measurements, surprise,
                           world_changes)
from netlm.infer import Predictor
from netlm.metrics import clean_json
from netlm.synth import generate
from netlm.world import World

TOL, N_SRC, EXP = 3600, 12, Path('runs/chg')
GRID = dict(drift=(0.25, 0.5, 1.0, 1.5), threshold=(4, 6, 8, 12, 16, 24, 32), hold=(0, 10, 30))   # 26_changes's


def world(seed, pick_seed):
    "26_changes's worlds: 30 probes, 2 days; N_SRC sources drawn at random; the measurements and the true changes."
    if not (EXP / f'w{seed}/measurements.parquet').exists():
        generate(str(EXP / f'w{seed}'), probes=30, days=2, seed=seed, progress=False)
    m = read_measurements(EXP / f'w{seed}/measurements.parquet')
    pick = np.random.default_rng(pick_seed).choice(np.unique(m.src.astype(str)), N_SRC, replace=False)
    m = m[np.isin(m.src.astype(str), pick)]
    return m, world_changes(World.load(str(EXP / f'w{seed}')), m)


def scores(name, m, context):
    "The base's surprise with `context`, cached under runs/chg/."
    path = EXP / f'{name}_{context}.npz'
    if not path.exists():
        t0 = time.time(); s = surprise(Predictor.from_pretrained('base'), m, context=context)
        np.savez(path, seconds=time.time() - t0, **s)
    return dict(np.load(path))


def grid(m, truth, z, settings: dict = GRID) -> list[tuple[dict, dict]]:
    "The CUSUM's result at every setting of `settings` on scores `z`, best F1 first (ties in grid order)."
    runs = [(dict(drift=d, threshold=h, hold=k), match_changes(detect_changes(m, z, drift=d, threshold=h, hold=k), truth, TOL))
            for d, h, k in itertools.product(*settings.values())]
    return sorted(runs, key=lambda r: -r[1]['f1'])


def per_source(detected, truth, sources):
    "True positives, detections and true changes of each source (matching is per pair, so per source it adds up)."
    sel = lambda t, s: t.filter(pc.equal(t['src_addr'], s))
    r = [match_changes(sel(detected, s), sel(truth, s), TOL) for s in sources]    # a loop per source (12)
    return np.array([[x['tp'], x['detected'], x['true']] for x in r], np.float64)


def paired_f1(a, b, n_boot=1000, seed=0):
    "F1 of a minus F1 of b, 95% interval from resampling the sources (the same draws for both)."
    rng = np.random.default_rng(seed)
    w = np.stack([np.bincount(rng.integers(0, len(a), len(a)), minlength=len(a)) for _ in range(n_boot)])
    f1 = lambda c: 2 * (w @ c[:, 0]) / (w @ c[:, 1] + w @ c[:, 2])
    point = lambda c: 2 * c[:, 0].sum() / (c[:, 1].sum() + c[:, 2].sum())
    return [float(point(a) - point(b)), *np.percentile(f1(a) - f1(b), [2.5, 97.5]).tolist()]


def reading(m, truth, found: dict, pairs) -> dict:
    """A test world's reading: every detector of `found` matched with 95% intervals over sources, and the paired F1
    differences of `pairs` [(a, b), ...] as 'a_minus_b_f1'."""
    src = np.unique(m.src.astype(str))
    counts = {k: per_source(d, truth, src) for k, d in found.items()}
    return dict(measurements=len(m), true_changes=truth.num_rows,
                **{k: match_changes(d, truth, TOL, n_boot=1000) for k, d in found.items()},
                **{f'{a}_minus_{b}_f1': paired_f1(counts[a], counts[b]) for a, b in pairs})


def git(*a): return subprocess.run(['git', *a], capture_output=True, text=True).stdout.strip()


if __name__ == '__main__':
    m, truth = world(5, 0)
    val = {}
    for ctx in ('probe', 'pair'):
        s = scores('val', m, ctx)
        runs = grid(m, truth, pit_z(s['pit']))
        best = runs[0]
        val[ctx] = dict(seconds=round(float(s['seconds']), 1), mean_nll=float(np.mean(s['nll'])), chosen=best[0],
                        result=best[1], top=[dict(**a, f1=round(b['f1'], 4)) for a, b in runs[:5]])
    v = val['pair']['result']
    passes = v['f1'] >= 0.40 and v['precision'] >= 0.30
    record = dict(
        name='C1', date='2026-11-29', issue=36, rule='experiments/changes_pair_context_rule.md',
        what="change detection with the shipped base (R12) scoring each ping given its (source, destination) pair's own "
             "preceding pings (surprise(..., context='pair')) instead of its probe's; CUSUM settings chosen again on the "
             "validation world by 26_changes's grid",
        commands=['python nbs/experiments/changes_pair_context.py nbs/experiments/changes_pair_context.json '
                  '(worlds: netlm synth --probes 30 --days 2 --seed 5 / --seed 11, 12 sources drawn with seed 0 / 1)'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2,
                     avx512='avx512f' in open('/proc/cpuinfo').read()),
        commit=git('rev-parse', 'HEAD'),
        validation=dict(measurements=len(m), true_changes=truth.num_rows, **val,
                        reference_reproduced=round(val['probe']['result']['f1'], 3) == 0.341),
        passes=passes, decision="netlm changes scores with the pair's context (CHANGES_CONTEXT = 'pair')" if passes else
        'the probe context stays; the test world is not read')
    if passes:                                         # the test world, once, with C1's chosen settings
        m, truth = world(11, 1)
        s = scores('test', m, 'pair')
        c1 = detect_changes(m, pit_z(s['pit']), **val['pair']['chosen'])
        pelt = pelt_changes(m, penalty=64)             # PELT's penalty chosen on the validation world (26_changes)
        sources = np.unique(m.src.astype(str))
        record['test'] = dict(measurements=len(m), true_changes=truth.num_rows, seconds=round(float(s['seconds']), 1),
                              c1=match_changes(c1, truth, TOL, n_boot=1000),
                              pelt=match_changes(pelt, truth, TOL, n_boot=1000),
                              c1_minus_pelt_f1=paired_f1(per_source(c1, truth, sources), per_source(pelt, truth, sources)),
                              reference='changes_test_world_r12.json: the probe context, F1 0.248 [0.14, 0.37]')
        record['target_met'] = record['test']['c1']['f1'] >= 0.502
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps({k: record[k] for k in ('passes', 'decision')}), json.dumps(record.get('test', {}), default=float)[:1500])
