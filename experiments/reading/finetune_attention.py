"""Build experiments/reading/finetune_attention.json (F8: the default fine-tune with the attention's step at a tenth, or
frozen) from the runs and evaluations its rule names; run from the repository root after them:
`python -m experiments.reading.finetune_attention experiments/reading/finetune_attention.json`."""
import json, sys
from pathlib import Path

from experiments.common import F7_DATA as DATA, arm, provenance, show, queue_train as train   # F7's data, controls, criteria and per-arm reading
from experiments.common import follow

RULE = 'experiments/reading/finetune_attention_rule.md'
QUEUE = 'runs/q5.txt'                # F8's runs and evaluations, in the order they ran
ARMS = dict(f8a='attention_lr_scale=0.1', f8b='attention_lr_scale=0')


def main(out_path):
    arms = {n: arm(n, s) for n, s in ARMS.items()}
    control_reading = json.loads(Path('runs/f7_ctl_menog_reading.json').read_text())
    passing = [n for n in ARMS if arms[n]['passes']]
    wins = lambda n: arms[n]['menog']['eval']['versus']['run ctl']['all']['wins'][0]
    chosen = max(passing, key=lambda n: (wins(n), n == 'f8a')) if passing else None
    record = dict(
        name='F8', what="R12's default fine-tune against the same with the attention weights' step at a tenth (F8a) or "
                        "frozen (F8b), judged by F5's criteria on MENOG's 30 validation probes and the seed-9 world "
                        "(F7's data and controls)", date='2026-12-01', issue=36, rule=RULE, data=DATA,
        **provenance(QUEUE),
        train={r: train(f'runs/{r}') for r in ('f7_ctl_s9', 'f8a_s9', 'f8b_s9', 'f7_ctl_menog', 'f8a_menog', 'f8b_menog')},
        control_copy=[follow(control_reading, '2'), follow(control_reading, '0.5')], arms=arms,
        decision=dict(chosen=chosen, why='passes criteria 1-6' if chosen else 'no arm passes criteria 1-6',
                      target_met=chosen is not None, default_changed=False),
        record='python -m experiments.reading.finetune_attention experiments/reading/finetune_attention.json')
    Path(out_path).write_text(json.dumps(record, indent=1))
    show(arms, record['control_copy'], record['decision'])


if __name__ == '__main__':
    main(sys.argv[1])
