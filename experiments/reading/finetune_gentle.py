"""Build experiments/reading/finetune_gentle.json (F7: the default fine-tune at lr 1e-3, alone and with F1c's rescaling)
from the runs and evaluations its rule names; run from the repository root after them:
`python -m experiments.reading.finetune_gentle experiments/reading/finetune_gentle.json`."""
import json, sys
from pathlib import Path

from experiments.common import follow       # F5's copy probe (its criteria, which F7's rule keeps, are in arm)
from experiments.common import F7_ARMS as ARMS, F7_DATA as DATA, arm, provenance, show, queue_train as train   # F7's, moved there for F8

RULE = 'experiments/reading/finetune_gentle_rule.md'
QUEUE = 'runs/q2.txt'                # the runs and evaluations, in the order they ran












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
        record='python -m experiments.reading.finetune_gentle experiments/reading/finetune_gentle.json')
    Path(out_path).write_text(json.dumps(record, indent=1))
    show(arms, control_copy, decision)


if __name__ == '__main__':
    main(sys.argv[1])
