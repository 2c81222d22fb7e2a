"""Build experiments/changes_pair_context_grid.json (C2) from C1's cached scores (runs/chg/, made by
changes_pair_context.py); run from the repository root:
`python nbs/experiments/changes_pair_context_grid.py nbs/experiments/changes_pair_context_grid.json`."""
import json, platform, sys
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).parent))
from changes_pair_context import TOL, git, grid, paired_f1, per_source, scores, world   # C1's worlds, cache, statistics
from netlm.changes import detect_changes, match_changes, pelt_changes, pit_z
from netlm.metrics import clean_json

WIDE = dict(drift=(0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0), threshold=(2, 3, 4, 6, 8, 12, 16, 24, 32), hold=(0, 10, 30, 60))
C1 = dict(drift=1.5, threshold=4, hold=30)


if __name__ == '__main__':
    m, truth = world(5, 0)
    z = pit_z(scores('val', m, 'pair')['pit'])
    runs = grid(m, truth, z, WIDE)
    best, c1 = runs[0], next(r for r in runs if r[0] == C1)
    passes = best[1]['f1'] >= c1[1]['f1'] + 0.02 and best[1]['precision'] >= 0.30
    edge = {k: best[0][k] in (v[0], v[-1]) for k, v in WIDE.items()}
    record = dict(
        name='C2', date='2026-11-29', issue=36, rule='experiments/changes_pair_context_grid_rule.md',
        what="C1's detector (the shipped base, the pair's context) with the CUSUM grid widened past the corner C1 chose",
        commands=['python nbs/experiments/changes_pair_context_grid.py nbs/experiments/changes_pair_context_grid.json '
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
