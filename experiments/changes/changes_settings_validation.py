"""Build experiments/changes/changes_settings_validation.json (C3) from the scores cached in runs/chg/ (C1's, and those of the
validation world's other 31 sources, computed here when missing: about 10 minutes on two CPU cores); run from the
repository root: `python -m experiments.changes.changes_settings_validation experiments/changes/changes_settings_validation.json`."""
import json, platform, sys
import numpy as np
from experiments.common import TOL, git, grid, paired_f1, per_source, scores, whole_validation, world   # C1's
from experiments.common import C1, WIDE                                           # C2's grid
from netlm.changes import detect_changes, match_changes, pelt_changes, pit_z
from netlm.metrics import clean_json

C2 = dict(drift=2.0, threshold=2, hold=60)





if __name__ == '__main__':
    m, truth, s, seconds = whole_validation()
    z = pit_z(s['pit'])
    runs = grid(m, truth, z, WIDE)
    best = runs[0]
    at = lambda s: next(r[1] for r in runs if r[0] == s)
    record = dict(
        name='C3', date='2026-11-29', issue=36, rule='experiments/changes/changes_settings_validation_rule.md',
        what="C1's detector (the shipped base, the pair's context) with its CUSUM settings chosen on all 43 sources of "
             "the validation world, on C2's widened grid",
        commands=['python -m experiments.changes.changes_settings_validation experiments/changes/changes_settings_validation.json'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        validation=dict(sources=int(len(np.unique(m.src.astype(str)))), measurements=len(m), true_changes=truth.num_rows,
                        seconds_other_31=round(seconds, 1), chosen=best[0], result=best[1], c1=at(C1), c2=at(C2),
                        on_edge={k: best[0][k] in (v[0], v[-1]) for k, v in WIDE.items()},
                        top=[dict(**a, f1=b['f1'], precision=b['precision'], recall=b['recall']) for a, b in runs[:12]]))
    m, truth = world(11, 1)                            # the test world, once more, with the chosen settings
    z = pit_z(scores('test', m, 'pair')['pit'])
    src = np.unique(m.src.astype(str))
    found = dict(c3=detect_changes(m, z, **best[0]), c1=detect_changes(m, z, **C1), c2=detect_changes(m, z, **C2),
                 pelt=pelt_changes(m, penalty=64))
    counts = {k: per_source(d, truth, src) for k, d in found.items()}
    record['test'] = dict(c3=match_changes(found['c3'], truth, TOL, n_boot=1000),
                          c3_minus_c1_f1=paired_f1(counts['c3'], counts['c1']),
                          c3_minus_pelt_f1=paired_f1(counts['c3'], counts['pelt']),
                          readings={k: match_changes(found[k], truth, TOL)['f1'] for k in ('c1', 'c2', 'c3', 'pelt')})
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json(record['validation']))[:1500], json.dumps(clean_json(record['test']))[:1500])
