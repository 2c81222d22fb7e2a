"""Build experiments/reading/r12_again.json (R12c: R12's own command trained again on this machine's CPU, a diagnostic)
from the runs and evaluations its plan names; run from the repository root after them:
`python -m experiments.reading.r12_again experiments/reading/r12_again.json`."""
import json, sys
from pathlib import Path

import numpy as np

from experiments.common import git, load_eval   # R17c's
from experiments.speed.answers_cpu import cpu
from netlm.runlog import read_metrics

PLAN = 'experiments/reading/r12_again_rule.md'
PRETRAIN = ('netlm pretrain --workdir runs/pt_r12c --worlds 128 --val-worlds 8 --steps 6000 sampler.relabel_dst=1.0 '
            'model.rtt_prefix_bias=true')
EVALS = dict(menog='runs/r12c_menog_eval', starlink='runs/r12c_starlink_eval', s7='runs/r12c_s7_eval')
EVAL_COMMANDS = [f'netlm eval --model runs/pt_r12c/model --data runs/{rows}/rows --split val --against r12=base '
                 f'--ip-queries 0 --inverse-queries 0{extra} --no-progress --out {EVALS[name]}'
                 for name, rows, extra in (('menog', 'menog_c13', ''), ('starlink', 'starlink', ''),
                                           ('s7', 's7', ' --max-queries 1000'))]
HOW_RUN = ('on the 2 CPU cores of an Intel Xeon @ 2.80GHz, 2026-12-08 (the 2026-12-07 run on an AMD EPYC died with its '
           'session at step 5,550); niced notebook tests shared the cores for about 40 minutes of its first hour (about a '
           'fifth of a core), two short niced scripts for about 4 minutes of its second')
# the R17 rule's statistics of criteria 1-4: (data set, slice, statistic)
STATISTICS = [('menog', 'seen', 'median_ae'), ('menog', 'all', 'median_ae'), ('menog', 'all', 'crps'),
              ('menog', 'unseen', 'median_ae'), ('starlink', 'all', 'crps'), ('starlink', 'all', 'median_ae'),
              ('s7', 'all', 'median_ae'), ('s7', 'seen', 'median_ae')]


def pretrain_record(W=Path('runs/pt_r12c')) -> dict:
    train, held = read_metrics(W / 'run'), read_metrics(W / 'run', 'held_out')
    fields = ('loss', 'loss_src_ip', 'loss_dst_ip', 'loss_rtt', 'loss_timestamp', 'loss_structure')
    return dict(command=PRETRAIN, steps=train[-1]['step'], real_tokens=int(sum(r['tokens'] for r in train)),
                tokens_per_s_median=round(float(np.median([r['tokens_per_s'] for r in train]))),
                train_seconds=round(train[-1]['elapsed_s']),
                held_out_curve=[dict(step=r['step'], **{k: round(r[k], 4) for k in fields}) for r in held],
                train_curve=[dict(step=r['step'], **{k: round(r[k], 4) for k in fields}) for r in train if r['step'] % 250 == 0])


def main(out_path):
    ev = {k: load_eval(p)['eval'] for k, p in EVALS.items()}
    r12 = json.loads(Path('experiments/reading/rtt_prefix_bias_6k.json').read_text())['pretrain']
    r17c = json.loads(Path('experiments/reading/mixed_jitter_6k_cpu.json').read_text())
    spread = []
    for d, s, k in STATISTICS:
        row = dict(data=d, slice=s, statistic=k, r12c_over_r12=ev[d]['versus']['run r12'][s][k],
                   r17c_over_r12=r17c[{'menog': 'menog_zero_shot', 'starlink': 'starlink_zero_shot',
                                       's7': 'synthetic_zero_shot'}[d]]['eval']['versus']['run r12'][s][k])
        spread.append(row)
    wins = {d: dict(r12c_over_r12=ev[d]['versus']['run r12']['all']['wins']) for d in EVALS}
    pre = pretrain_record()
    record = dict(
        name='R12c', kind='diagnostic: no choice follows from it', date='2026-12-08', issue=64, plan=PLAN,
        what="R12's own command trained again on this machine's two CPU cores: one recipe's run-to-run spread on the base "
             "rules' statistics (R12c / R12), beside R17c / R12 from R17c's own record (same rows and protocol, not "
             "paired with R12c: R17c's model was not at hand, the plan's amendment); validation probes only",
        machine=cpu(),
        commit=git('rev-parse', 'HEAD'),
        how_run=HOW_RUN, evaluations=EVAL_COMMANDS, pretrain=pre, r12_pretrain_end=r12['held_out_curve'][-1], r17c_pretrain_end=r17c['pretrain']['held_out_curve'][-1],
        statistics=spread, wins=wins,
        # not a reading of the rule, added after it: did R12c train on R12's batches? (R12's record keeps its training
        # losses every 250 steps, not its tokens)
        train_at_250=dict(r12c=pre['train_curve'][0], r12=r12['train_curve'][0]),
        evals={k: dict(rtt=v['rtt'], versus=v['versus'], protocol=v['protocol']) for k, v in ev.items()},
        record='python -m experiments.reading.r12_again experiments/reading/r12_again.json')
    Path(out_path).write_text(json.dumps(record, indent=1))
    print('held-out end: R12c', pre['held_out_curve'][-1], '\n              R12 ', r12['held_out_curve'][-1])
    for r in spread:
        f = lambda v: f'{v[0]:.3f} [{v[1]:.3f}, {v[2]:.3f}]'
        print(f"{r['data']:9s} {r['slice']:7s} {r['statistic']:10s} R12c/R12 {f(r['r12c_over_r12'])}  "
              f"R17c/R12 {f(r['r17c_over_r12'])}")
    print(wins)


if __name__ == '__main__':
    main(sys.argv[1])
