"""Build experiments/speed/shared_start_fold.json: `netlm bench predict` (its defaults: 12 probes, 505 RTT questions on
40 contexts, 4 questions) before and after a new trunk runs its shared start in its own prefill (`PrefixDecoder`,
nbs/22_decoding), each arm a checkout of its commit (`git worktree`), the arms interleaved over `ROUNDS` processes each,
on the 2-core machine with nothing else running. The model calls of each question's timed pass are the same in every
process of an arm (the bench asserts nothing about them: this record does), so the fold's saving in calls is exact
while its saving in time is as good as the machine's spread allows.
From the repository root: `python -m experiments.speed.shared_start_fold experiments/speed/shared_start_fold.json`."""
import datetime, json, statistics, subprocess, sys, tempfile
from pathlib import Path

from experiments.common import git
from experiments.speed.answers_cpu import RATES, cpu

ARMS = dict(before='1cb7fcd', after='fa9d021')     # the commit before the fold, and the fold's
ROUNDS = 3
BENCH = ('import json, netlm; from netlm.benchmarks import bench_predict; '
         'print(json.dumps(dict(bench_predict(), netlm=netlm.__file__)))')


def run_arm(tree: Path) -> dict:
    "One fresh process of `netlm bench predict` with the package of the checkout `tree` (its folder first on the path)."
    proc = subprocess.run([sys.executable, '-c', BENCH], cwd=tree, capture_output=True, text=True, check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out['netlm'].startswith(str(tree)), out['netlm']      # the arm's own code, not the installed one
    return out


def main(out_path):
    runs = {arm: [] for arm in ARMS}
    with tempfile.TemporaryDirectory(prefix='netlm-fold-') as tmp:
        trees = {arm: Path(tmp) / arm for arm in ARMS}
        for arm, commit in ARMS.items(): git('worktree', 'add', '--detach', str(trees[arm]), commit)
        try:
            for r in range(ROUNDS):
                for arm in (ARMS if r % 2 == 0 else reversed(list(ARMS))):   # ABBA: neither arm always first
                    runs[arm].append(run_arm(trees[arm])); print(arm, {q: round(runs[arm][-1][f'{q}_queries_per_s'], 1) for q in RATES})
        finally:
            for tree in trees.values(): git('worktree', 'remove', '--force', str(tree))
    per_s = {arm: {q: [r[f'{q}_queries_per_s'] for r in rs] for q in RATES} for arm, rs in runs.items()}
    calls = {arm: {q: rs[0][f'{q}_model_calls'][1] for q in RATES} for arm, rs in runs.items()}   # the timed pass
    record = dict(
        what="The predictor's four questions per second and model calls before and after a new trunk runs its shared "
             "start (the probe's measurement start and address, which every question of a context repeats) in its "
             "own prefill instead of a call of its own",
        date=str(datetime.date.today()), issue=66, machine=cpu(), commit=git('rev-parse', 'HEAD'), arms=ARMS,
        protocol=f'{ROUNDS} fresh processes per arm, interleaved ABBA; each question timed on its second pass',
        per_s=per_s, median_per_s={arm: {q: statistics.median(v) for q, v in d.items()} for arm, d in per_s.items()},
        ratio_of_medians={q: statistics.median(per_s['after'][q]) / statistics.median(per_s['before'][q]) for q in RATES},
        timed_pass_calls=calls,
        calls_same_in_every_process={arm: all(r[f'{q}_model_calls'][1] == rs[0][f'{q}_model_calls'][1]
                                              for r in rs for q in RATES) for arm, rs in runs.items()},
        runs=runs, record='python -m experiments.speed.shared_start_fold experiments/speed/shared_start_fold.json')
    Path(out_path).write_text(json.dumps(record, indent=1) + '\n')
    print(json.dumps({k: record[k] for k in ('median_per_s', 'ratio_of_medians', 'timed_pass_calls')}, indent=1))


if __name__ == '__main__': main(*sys.argv[1:])
