"""Build experiments/changes/changes_fresh_test.json (C4): netlm changes's defaults read once on a fresh synthetic test world
(seed 12, 12 sources drawn with seed 2); run from the repository root:
`python -m experiments.changes.changes_fresh_test experiments/changes/changes_fresh_test.json` (about 6 minutes on two CPU
cores; the scores are cached in runs/chg/fresh_pair.npz)."""
import json, platform, sys
import numpy as np
from experiments.common import TOL, git, paired_f1, per_source, scores, world    # C1's worlds, cache, statistics
from netlm.changes import detect_changes, match_changes, pelt_changes, pit_z
from netlm.config import CHANGES_CONTEXT, CUSUM_DEFAULTS
from netlm.metrics import clean_json



if __name__ == '__main__':
    m, truth = world(12, 2)
    s = scores('fresh', m, CHANGES_CONTEXT)
    model, pelt = detect_changes(m, pit_z(s['pit']), **CUSUM_DEFAULTS), pelt_changes(m, penalty=64)
    src = np.unique(m.src.astype(str))
    record = dict(
        name='C4', date='2026-11-29', issue=36, rule='experiments/changes/changes_fresh_test_rule.md',
        what="netlm changes's committed defaults (the shipped base, the pair's context, C3's CUSUM settings) and PELT, "
             'read once on a fresh synthetic test world',
        commands=['python -m experiments.changes.changes_fresh_test experiments/changes/changes_fresh_test.json '
                  '(world: netlm synth --probes 30 --days 2 --seed 12, 12 sources drawn with seed 2)'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        settings=dict(context=CHANGES_CONTEXT, **CUSUM_DEFAULTS, pelt_penalty=64),
        measurements=len(m), true_changes=truth.num_rows, sources=len(src), seconds=round(float(s['seconds']), 1),
        true_by_kind={k: int(v) for k, v in zip(*np.unique(truth['kind'].to_numpy(zero_copy_only=False).astype(str), return_counts=True))},
        model=match_changes(model, truth, TOL, n_boot=1000), pelt=match_changes(pelt, truth, TOL, n_boot=1000),
        model_minus_pelt_f1=paired_f1(per_source(model, truth, src), per_source(pelt, truth, src)))
    record['confirmed'] = record['model']['f1'] >= record['pelt']['f1']
    record['beats_pelt'] = record['model_minus_pelt_f1'][1] > 0
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json({k: record[k] for k in ('measurements', 'true_changes', 'true_by_kind', 'model', 'pelt',
                                                          'model_minus_pelt_f1', 'confirmed', 'beats_pelt')})))
