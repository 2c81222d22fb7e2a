"""Build experiments/reading/finetune_pair_scale_spread.json (F6) from the runs and evaluations its rule names; run from
the repository root after them: `python -m experiments.reading.finetune_pair_scale_spread OUT.json`."""
import json, platform, subprocess, sys
from pathlib import Path

from experiments.common import judge, timed_train as train          # F5's criteria, which F6's rule keeps

RULE = 'experiments/reading/finetune_pair_scale_spread_rule.md'
ARM = 'sampler.pair_rtt_scale=1.0 sampler.pair_rtt_scale_dsts=0.5'
COMMANDS = dict(
    s8_f6=f'netlm train --preset cpu-small --data runs/s8/rows --steps 300 --init base --workdir runs/s8_f6 {ARM}',
    s8_eval='netlm eval --workdir runs/s8_f6 --data runs/s8/rows --split val --against ctl=runs/s8_ctl f1c=runs/s8_f1c '
            '--ip-queries 0 --inverse-queries 0 --max-queries 4000 --out runs/s8_f6_val',
    menog_f6=f'netlm train --preset cpu-small --data runs/menog_f2/rows --steps 600 --init base --workdir runs/f6_menog '
             f'seed=1 {ARM}',
    menog_eval='netlm eval --workdir runs/f6_menog --data runs/menog_f2/rows --split val --against ctl=runs/f5_ctl '
               'f1c=runs/f5_f1c base=base --ip-queries 0 --inverse-queries 0 --reading --out runs/f6_menog_val',
    record='python -m experiments.reading.finetune_pair_scale_spread experiments/reading/finetune_pair_scale_spread.json',
    controls='F5\'s: runs/s8_ctl, runs/s8_f1c, runs/f5_ctl, runs/f5_f1c (finetune_pair_scale_wins.json)')


def main(out_path):
    s8 = json.loads(Path('runs/s8_f6_val/metrics.json').read_text())
    mg = json.loads(Path('runs/f6_menog_val/metrics.json').read_text())
    reading = json.loads(Path('runs/f6_menog_val/reading.json').read_text())
    criteria = judge(mg, s8, reading)
    passes = all(c['holds'] for c in criteria)
    versus_f1c = {name: {s: {k: m['versus']['run f1c'][s][k] for k in ('median_ae', 'wins', 'crps')}
                         for s in ('all', 'seen', 'unseen')} for name, m in (('menog', mg), ('s8', s8))}
    record = dict(
        name='F6', what="F1c's rescaling spread over every context, half the destinations of each "
                        f'({ARM} in the fine-tune)', date='2026-11-29', issue=36, rule=RULE, commands=COMMANDS,
        machine=dict(cpu=platform.processor() or platform.machine(), avx512='avx512f' in open('/proc/cpuinfo').read()),
        commit=subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip(),
        train={r: train(f'runs/{r}', 'runs/f6_times.log') for r in ('s8_f6', 'f6_menog')},
        criteria=criteria, passes=passes, decision=dict(passes=passes, default_changed=False),
        versus_f1c=versus_f1c, menog=dict(eval=mg, reading=reading), s8=dict(eval=s8))
    Path(out_path).write_text(json.dumps(record, indent=1))
    for c in criteria: print(('holds ' if c['holds'] else 'FAILS ') + c['criterion'], c['value'])
    print('passes' if passes else 'fails')
    print(json.dumps(versus_f1c))


if __name__ == '__main__':
    main(sys.argv[1])
