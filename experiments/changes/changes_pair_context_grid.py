"""Build experiments/changes/changes_pair_context_grid.json (C2) from C1's cached scores (runs/chg/, made by
changes_pair_context.py); run from the repository root:
`python -m experiments.changes.changes_pair_context_grid experiments/changes/changes_pair_context_grid.json`."""
import json, platform, sys
import numpy as np
from experiments.common import C1, TOL, WIDE, git, grid, paired_f1, per_source, scores, world   # C1's worlds, cache, statistics; C2's grid
from netlm.changes import detect_changes, match_changes, pelt_changes, pit_z
from netlm.metrics import clean_json



if __name__ == '__main__':
    m, truth = world(5, 0)
    z = pit_z(scores('val', m, 'pair')['pit'])
    runs = grid(m, truth, z, WIDE)
    best, c1 = runs[0], next(r for r in runs if r[0] == C1)
    passes = best[1]['f1'] >= c1[1]['f1'] + 0.02 and best[1]['precision'] >= 0.30
    edge = {k: best[0][k] in (v[0], v[-1]) for k, v in WIDE.items()}
    record = dict(
        name='C2', date='2026-11-29', issue=36, rule='experiments/changes/changes_pair_context_grid_rule.md',
        what="C1's detector (the shipped base, the pair's context) with the CUSUM grid widened past the corner C1 chose",
        commands=['python -m experiments.changes.changes_pair_context_grid experiments/changes/changes_pair_context_grid.json '
                  "(C1's cached scores; the worlds of changes_pair_context.json)"],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        grid=WIDE, validation=dict(chosen=best[0], result=best[1], c1=c1[1], on_edge=edge,
                                   top=[dict(**a, f1=b['f1'], precision=b['precision'], recall=b['recall']) for a, b in runs[:12]]),
        passes=passes)
    if passes:                                         # the test world, once, with the chosen settings
        m, truth = world(11, 1)
        z = pit_z(scores('test', m, 'pair')['pit'])
        c2, c1d, pelt = (detect_changes(m, z, **best[0]), detect_changes(m, z, **C1), pelt_changes(m, penalty=64))
        src = np.unique(m.src.astype(str))
        counts = {k: per_source(d, truth, src) for k, d in (('c2', c2), ('c1', c1d), ('pelt', pelt))}
        record['test'] = dict(c2=match_changes(c2, truth, TOL, n_boot=1000),
                              c2_minus_c1_f1=paired_f1(counts['c2'], counts['c1']),
                              c2_minus_pelt_f1=paired_f1(counts['c2'], counts['pelt']))
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json({k: record[k] for k in ('passes', 'validation')})['validation']['chosen']),
          json.dumps(clean_json(record.get('test', {})))[:1200])
