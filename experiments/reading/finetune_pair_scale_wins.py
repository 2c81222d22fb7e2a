"""Build experiments/reading/finetune_pair_scale_wins.json (F5) from the runs and evaluations its rule names; run from the
repository root after them: `python -m experiments.reading.finetune_pair_scale_wins OUT.json`."""
import json, platform, subprocess, sys
from pathlib import Path

import numpy as np

from experiments.common import load, paired            # the diagnostic's per-query statistics
from experiments.common import follow, judge, timed_train as train   # F5's, moved there for F6 to F8

RULE = 'experiments/reading/finetune_pair_scale_wins_rule.md'
COMMANDS = dict(
    s8_world='netlm synth runs/s8/world --probes 100 --days 2 --seed 8',
    s8_rows='netlm preprocess runs/s8/world/measurements.parquet runs/s8/rows --test-fraction 0.2 --val-fraction 0.4',
    s8_control='netlm train --preset cpu-small --data runs/s8/rows --steps 300 --init base --workdir runs/s8_ctl',
    s8_f1c='netlm train --preset cpu-small --data runs/s8/rows --steps 300 --init base --workdir runs/s8_f1c '
           'sampler.pair_rtt_scale=0.5',
    s8_eval='netlm eval --workdir runs/s8_f1c --data runs/s8/rows --split val --against ctl=runs/s8_ctl base=base '
            '--ip-queries 0 --inverse-queries 0 --max-queries 4000 --out runs/s8_f1c_val',
    menog_control='netlm train --preset cpu-small --data runs/menog_f2/rows --steps 600 --init base --workdir runs/f5_ctl '
                  'seed=1',
    menog_f1c='netlm train --preset cpu-small --data runs/menog_f2/rows --steps 600 --init base --workdir runs/f5_f1c '
              'seed=1 sampler.pair_rtt_scale=0.5',
    menog_eval='netlm eval --workdir runs/f5_f1c --data runs/menog_f2/rows --split val --against ctl=runs/f5_ctl '
               'base=base --ip-queries 0 --inverse-queries 0 --reading --out runs/f5_f1c_val',
    menog_control_reading='python -m netlm.reading --model runs/f5_ctl --data runs/menog_f2/rows --split val '
                          '--out runs/f5_ctl_reading.json',
    record='python -m experiments.reading.finetune_pair_scale_wins experiments/reading/finetune_pair_scale_wins.json')










def main(out_path):
    s8 = json.loads(Path('runs/s8_f1c_val/metrics.json').read_text())
    mg = json.loads(Path('runs/f5_f1c_val/metrics.json').read_text())
    reading = json.loads(Path('runs/f5_f1c_val/reading.json').read_text())
    ctl_reading = json.loads(Path('runs/f5_ctl_reading.json').read_text())
    criteria = judge(mg, s8, reading)
    passes = all(c['holds'] for c in criteria)
    # beside: the plain fine-tune (seed 1) against the base, so "keeps improving" has its reference
    beside = {}
    for name, path in (('menog', 'runs/f5_f1c_val'), ('s8', 'runs/s8_f1c_val')):
        q = load(path)
        slices = dict(all=np.ones(len(q['ok']), bool), seen=q['seen'], unseen=~q['seen'])
        beside[name] = {s: dict(control_vs_base=paired(q, 'median.run ctl', 'median.run base', m)) for s, m in slices.items()}
    record = dict(
        name='F5', what='F1c (sampler.pair_rtt_scale=0.5 in the fine-tune) judged by the share of queries won, on a fresh '
                        'synthetic world (seed 8) and a second MENOG training seed', date='2026-11-29', issue=36,
        rule=RULE, commands=COMMANDS,
        machine=dict(cpu=platform.processor() or platform.machine(), avx512='avx512f' in open('/proc/cpuinfo').read()),
        commit=subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip(),
        train={r: train(f'runs/{r}') for r in ('s8_ctl', 's8_f1c', 'f5_ctl', 'f5_f1c')},
        criteria=criteria, passes=passes, decision=dict(passes=passes, default_changed=False),
        menog=dict(eval=mg, reading=reading, control_reading=ctl_reading, copy_control=[follow(ctl_reading, '2'),
                                                                                        follow(ctl_reading, '0.5')]),
        s8=dict(eval=s8), beside=beside)
    Path(out_path).write_text(json.dumps(record, indent=1))
    for c in criteria: print(('holds ' if c['holds'] else 'FAILS ') + c['criterion'], c['value'])
    print('passes' if passes else 'fails')


if __name__ == '__main__':
    main(sys.argv[1])
