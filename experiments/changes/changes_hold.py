"""Build experiments/changes/changes_hold.json (C7: the CUSUM's hold past 60 measurements) from C6's cached scores of the 43
validation sources in runs/chg/ (made again when missing, about 20 minutes), and a fresh world's when the rule lets it
be read (about 5 minutes on two CPU cores); run from the repository root:
`python -m experiments.changes.changes_hold experiments/changes/changes_hold.json`."""
import json, platform, sys
import numpy as np
from experiments.common import WIDE, git, grid, ramped, reading, whole_validation, world   # C1's, C2's, C3's, C6's
from netlm.changes import detect_changes, pelt_changes, pit_z
from netlm.config import CUSUM_DEFAULTS
from netlm.metrics import clean_json

LONGER = WIDE | dict(hold=(*WIDE['hold'], 90, 120, 180, 240))


if __name__ == '__main__':
    m, truth, _, _ = whole_validation()
    runs = grid(m, truth, pit_z(ramped('val_all', m)['pit']), LONGER)
    best = runs[0]
    by_hold = {h: next(dict(**a, f1=b['f1'], precision=b['precision'], recall=b['recall']) for a, b in runs
                       if a['hold'] == h) for h in LONGER['hold']}
    passes = best[0]['hold'] > 60 and best[1]['f1'] >= 0.608 and best[1]['precision'] >= 0.30
    record = dict(
        name='C7', date='2026-11-29', issue=36, rule='experiments/changes/changes_hold_rule.md',
        what="netlm changes's detector (C6: the shipped base, the pair's context, ramped first cuts) with the CUSUM's "
             "hold grid extended past 60 measurements",
        commands=['python -m experiments.changes.changes_hold experiments/changes/changes_hold.json'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        validation=dict(sources=int(len(np.unique(m.src.astype(str)))), true_changes=truth.num_rows, chosen=best[0],
                        result=best[1], c6=next(r[1] for r in runs if r[0] == CUSUM_DEFAULTS),
                        on_edge={k: best[0][k] in (v[0], v[-1]) for k, v in LONGER.items()}, best_by_hold=by_hold),
        passes=passes)
    if passes:                                         # a fresh world, once
        m, truth = world(14, 4)
        z = pit_z(ramped('fresh14', m)['pit'])
        found = dict(c7=detect_changes(m, z, **best[0]), c6=detect_changes(m, z, **CUSUM_DEFAULTS),
                     pelt=pelt_changes(m, penalty=64))
        record['test'] = reading(m, truth, found, [('c7', 'c6'), ('c7', 'pelt'), ('c6', 'pelt')])
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json(record['validation']))[:2500], json.dumps(clean_json(record.get('test', {})))[:2500])
