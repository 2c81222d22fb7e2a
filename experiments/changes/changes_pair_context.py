"""Build experiments/changes/changes_pair_context.json (C1) from the runs its rule names; run from the repository root:
`python -m experiments.changes.changes_pair_context experiments/changes/changes_pair_context.json`. The model's scores are
cached in runs/chg/ (val_pair.npz, val_probe.npz, test_pair.npz); without them they are computed (about 4 + 4 + 6
minutes on two CPU cores)."""
import json, platform, sys
import numpy as np
from netlm.changes import detect_changes, match_changes, pelt_changes, pit_z
from netlm.metrics import clean_json
from experiments.common import TOL, git, grid, paired_f1, per_source, scores, world   # C1's worlds, cache, statistics

















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
        name='C1', date='2026-11-29', issue=36, rule='experiments/changes/changes_pair_context_rule.md',
        what="change detection with the shipped base (R12) scoring each ping given its (source, destination) pair's own "
             "preceding pings (surprise(..., context='pair')) instead of its probe's; CUSUM settings chosen again on the "
             "validation world by 26_changes's grid",
        commands=['python -m experiments.changes.changes_pair_context experiments/changes/changes_pair_context.json '
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
