"""Build experiments/changes/changes_warmup.json (C6: a series' first cuts ramped, `surprise(..., ramp=True)`) from the worlds
and cached scores of C1 and C3 in runs/chg/ (made again from their seeds when missing); run from the repository root:
`python -m experiments.changes.changes_warmup experiments/changes/changes_warmup.json` (about 20 minutes on two CPU cores for
the 43 validation sources, 10 more for the fresh world when the rule lets it be read)."""
import json, platform, sys
import numpy as np
from experiments.common import TOL, WIDE, git, grid, ramped, reading, scores, whole_validation, world   # C1's, C2's, C3's
from netlm.changes import detect_changes, match_changes, pair_runs, pelt_changes, pit_z
from netlm.config import CUSUM_DEFAULTS
from netlm.measurements import timestamp_column
from netlm.metrics import clean_json




def first_pings(m, found, truth, n=64) -> dict:
    "Alarms, true changes and true positives in each pair's first `n` pings (the ramp's part) and after."
    order, bounds = pair_runs(m)
    key = np.char.add(np.char.add(m.src.astype(str), '|'), m.dst.astype(str))
    times = {key[order[a]]: m.t[order[a:b]] for a, b in zip(bounds[:-1], bounds[1:])}   # a loop per pair
    at = lambda tab, col: np.array([np.searchsorted(times[f'{a}|{b}'], t) for a, b, t in zip(   # a loop per event
        tab['src_addr'].to_pylist(), tab['dst_addr'].to_pylist(), timestamp_column(tab[col])[1])], np.int64)
    early_alarm, early_true = at(found, 'alarm_time') < n, at(truth, 'event_time') < n
    return dict(alarms_first=int(early_alarm.sum()), alarms_after=int((~early_alarm).sum()),
                true_first=int(early_true.sum()), true_after=int((~early_true).sum()),
                f1_first=match_changes(found.filter(early_alarm), truth.filter(early_true), TOL)['f1'],
                f1_after=match_changes(found.filter(~early_alarm), truth.filter(~early_true), TOL)['f1'])


if __name__ == '__main__':
    m, truth, s3, _ = whole_validation()
    s6 = ramped('val_all', m)
    runs = grid(m, truth, pit_z(s6['pit']), WIDE)
    best = runs[0]
    at = lambda settings: next(r[1] for r in runs if r[0] == settings)
    c3_found = detect_changes(m, pit_z(s3['pit']), **CUSUM_DEFAULTS)
    c6_found = detect_changes(m, pit_z(s6['pit']), **best[0])
    passes = best[1]['f1'] >= 0.540 and best[1]['precision'] >= 0.30
    record = dict(
        name='C6', date='2026-11-29', issue=36, rule='experiments/changes/changes_warmup_rule.md',
        what="C3's detector (the shipped base, the pair's context) with each pair's first cuts ramped (surprise(..., "
             "ramp=True): cuts at its 1st, 2nd, 4th, ..., 32nd ping, then every 64), CUSUM settings on C2's wide grid",
        commands=['python -m experiments.changes.changes_warmup experiments/changes/changes_warmup.json'],
        machine=dict(cpu=platform.processor() or platform.machine(), cores=2), commit=git('rev-parse', 'HEAD'),
        validation=dict(sources=int(len(np.unique(m.src.astype(str)))), measurements=len(m), true_changes=truth.num_rows,
                        seconds=round(float(s6['seconds']), 1), chosen=best[0], result=best[1],
                        at_c3_settings=at(CUSUM_DEFAULTS),
                        c3=match_changes(c3_found, truth, TOL),
                        on_edge={k: best[0][k] in (v[0], v[-1]) for k, v in WIDE.items()},
                        first_64=dict(c3=first_pings(m, c3_found, truth), c6=first_pings(m, c6_found, truth)),
                        top=[dict(**a, f1=b['f1'], precision=b['precision'], recall=b['recall']) for a, b in runs[:8]]),
        passes=passes)
    if passes:                                         # the fresh world C5 would have read, once
        m, truth = world(13, 3)
        found = dict(c6=detect_changes(m, pit_z(ramped('fresh13', m)['pit']), **best[0]),
                     c3=detect_changes(m, pit_z(scores('fresh13', m, 'pair')['pit']), **CUSUM_DEFAULTS),
                     pelt=pelt_changes(m, penalty=64))
        record['test'] = reading(m, truth, found, [('c6', 'c3'), ('c6', 'pelt'), ('c3', 'pelt')])
    json.dump(clean_json(record), open(sys.argv[1], 'w'), indent=1)
    print(json.dumps(clean_json(record['validation']))[:2000], json.dumps(clean_json(record.get('test', {})))[:2500])
