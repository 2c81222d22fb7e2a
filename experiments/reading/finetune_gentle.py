"""Build experiments/reading/finetune_gentle.json (F7: the default fine-tune at lr 1e-3, alone and with F1c's rescaling)
from the runs and evaluations its rule names; run from the repository root after them:
`python nbs/experiments/reading/finetune_gentle.py nbs/experiments/reading/finetune_gentle.json`."""
import json, platform, subprocess, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from finetune_pair_scale_wins import follow, judge       # F5's criteria, which F7's rule keeps
from netlm.runlog import read_metrics

RULE = 'experiments/reading/finetune_gentle_rule.md'
QUEUE = 'runs/q2.txt'                # the runs and evaluations, in the order they ran
ARMS = dict(f7a='lr=1e-3', f7b='lr=1e-3 sampler.pair_rtt_scale=0.5')
DATA = dict(
    menog='netlm preprocess runs/menog_ft/measurements.parquet runs/menog_f2/rows --test-fraction 0.2 --val-fraction 0.4',
    s9='netlm synth runs/s9/world --probes 100 --days 2 --seed 9; netlm preprocess runs/s9/world/measurements.parquet '
       'runs/s9/rows --test-fraction 0.2 --val-fraction 0.4')


def seconds(log='runs/times.log') -> dict:
    "Wall seconds of each training run, from the queue's timing log."
    out = {}
    for line in Path(log).read_text().splitlines():
        _, s, _, rest = line.split(' ', 3)
        if ' train ' in rest: out[rest.split('--workdir ')[1].split()[0]] = int(s)
    return out


def provenance(queue) -> dict:
    "What ran (the queue's commands, in order), on what machine, at what commit: every F record's header."
    return dict(commands=[l for l in Path(queue).read_text().splitlines() if l.strip()],
                machine=dict(cpu=platform.processor() or platform.machine(), cores=2,
                             avx512='avx512f' in open('/proc/cpuinfo').read()),
                commit=subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip())


def show(arms, control_copy, decision):
    "Each arm's copy and criteria, then the control's copy and the decision."
    for n, a in arms.items():
        print(n, a['settings'], 'copy', [round(x, 3) for x in a['copy']])
        for c in a['criteria']: print(('  holds ' if c['holds'] else '  FAILS ') + c['criterion'], c['value'])
    print('control copy', control_copy, '->', decision)


def train(run) -> dict:
    "A run's last step, training loss, last held-out loss and wall seconds."
    last, held = read_metrics(run)[-1], read_metrics(run, 'held_out')
    return dict(step=last['step'], loss=last['loss'], held_out_loss=held[-1]['loss'] if held else None,
                tokens_per_s=last['tokens_per_s'], seconds=seconds().get(run))


def arm(name, settings=None) -> dict:
    """One arm's evaluations (`runs/NAME_menog_val` with its reading, `runs/NAME_s9_val`) and the rule's six criteria;
    `settings` name the arm (F7's own by default)."""
    mg = json.loads(Path(f'runs/{name}_menog_val/metrics.json').read_text())
    reading = json.loads(Path(f'runs/{name}_menog_val/reading.json').read_text())
    s9 = json.loads(Path(f'runs/{name}_s9_val/metrics.json').read_text())
    criteria = judge(mg, s9, reading, world='seed-9', menog='MENOG')
    return dict(settings=settings or ARMS[name], criteria=criteria, passes=all(c['holds'] for c in criteria),
                copy=[follow(reading, '2'), follow(reading, '0.5')],
                menog=dict(eval=mg, reading=reading), s9=dict(eval=s9))


def decide(arms: dict, control_copy: list) -> dict:
    "The rule's decision: an arm passing 1-6, else F7a as a better fine-tune, else the default stays."
    passing = [n for n in ('f7a', 'f7b') if arms[n]['passes']]
    wins = lambda n, part: arms[n][part]['eval']['versus']['run ctl']['all']['wins'][0]
    if passing:
        chosen = max(passing, key=lambda n: (wins(n, 'menog'), n == 'f7a'))
        return dict(chosen=chosen, why='passes criteria 1-6', target_met=True)
    a = arms['f7a']
    better = (all(c['holds'] for c in a['criteria'][1:]) and wins('f7a', 'menog') >= 0.5 and wins('f7a', 's9') >= 0.5
              and a['copy'][0] > control_copy[0])
    if better: return dict(chosen='f7a', why='criteria 2-6, all-queries wins >= 0.5 on both, copies further than the '
                                             'default', target_met=False)
    return dict(chosen=None, why='no arm passes 1-6 and F7a is not a better fine-tune by the rule', target_met=False)


def main(out_path):
    arms = {n: arm(n) for n in ARMS}
    control_reading = json.loads(Path('runs/f7_ctl_menog_reading.json').read_text())
    control_copy = [follow(control_reading, '2'), follow(control_reading, '0.5')]
    decision = decide(arms, control_copy)
    record = dict(
        name='F7', what="R12's default fine-tune (lr 3e-3) against the same at lr 1e-3 (F7a) and at lr 1e-3 with F1c's "
                        'per-destination rescaling (F7b), judged by F5\'s criteria on MENOG\'s 30 validation probes and '
                        'a fresh world (seed 9)', date='2026-12-01', issue=36, rule=RULE, data=DATA,
        **provenance(QUEUE),
        train={r: train(f'runs/{r}') for r in ('f7_ctl_s9', 'f7a_s9', 'f7b_s9', 'f7_ctl_menog', 'f7a_menog',
                                                 'f7b_menog')},
        control_copy=control_copy, control_reading=control_reading, arms=arms,
        decision=decision | dict(default_changed=False),
        record='python nbs/experiments/reading/finetune_gentle.py nbs/experiments/reading/finetune_gentle.json')
    Path(out_path).write_text(json.dumps(record, indent=1))
    show(arms, control_copy, decision)


if __name__ == '__main__':
    main(sys.argv[1])
