"""Build experiments/speed/kept_chains.json: answering before and after the prefix engine kept each chain's keys and
values (nbs/22_decoding, *The trunk once* and what follows it), on the 2-core machine with nothing else running.

- `netlm bench predict`, before (the code of a96546d, run from a worktree) and after: twice at the earlier records'
  size (`probes=6 queries=90`) and once at the benchmark's defaults (12 probes, up to 600 RTT questions). The first
  version (61d02c3) alternated with the before runs; its shapes made the first command slower (below), and the
  final version (f56c76e) was measured again, after it, in sequence.
- The quickstart's evaluation, before and after (f56c76e), on the same trained run and data
  (`experiments/speed/eval_parts.py`: `evaluate_run` with the quickstart's 200 completions and 100 inverse searches,
  counting XLA compilations): its parts' seconds.
- `./scripts/quickstart` from a fresh clone with the install (`/usr/bin/time -v`), with the first version and with
  the final one.
The JSON lines and logs the commands print are kept under runs/ first. From the repository root:
`python -m experiments.speed.kept_chains experiments/speed/kept_chains.json`."""
import ast, json, sys
from pathlib import Path

from experiments.common import git
from experiments.speed.answers_cpu import RATES, cpu, quickstart

BEFORE, FIRST, FINAL = 'a96546d', '61d02c3', 'f56c76e'
COMMANDS = dict(
    bench='netlm bench predict --set probes=6 queries=90 (runs/kept_S_smallN.json, S = before, after; N = 1, 2) and '
          'netlm bench predict (runs/kept_S_default.json)',
    eval_parts='python -m experiments.speed.eval_parts RUN ROWS 200 100 (RUN, ROWS: the first version\'s quickstart '
               'run and rows), before (PYTHONPATH: the worktree of a96546d) and after (runs/eval_shapes_both.log, the '
               'lines prefixed old and new)',
    quickstart='git clone REPO /tmp/qs && cd /tmp/qs && /usr/bin/time -v ./scripts/quickstart --workdir /tmp/qs_work '
               '(runs/kept_qs1/: the first version, runs/kept_qs2/: the final one; each qs.log, the run\'s report.md as '
               'qs_report.md and its eval/metrics.json as metrics.json)')
TAGS = ('small1', 'small2', 'default')


def rates(runs: dict) -> dict:
    return {t: {q: round(r[f'{q}_queries_per_s'], 1) for q in RATES} for t, r in runs.items()}


def eval_parts(log: str) -> dict:
    "Each side's evaluation seconds by part, its wall time and XLA compilations, from the script's lines."
    out = {}
    for line in Path(log).read_text().splitlines():
        side, rest = line.split(' ', 1)
        seconds = ast.literal_eval(rest[len('seconds '):rest.index(' wall')])
        words = rest[rest.index(' wall'):].split()
        out[dict(old='before', new='after')[side]] = dict(seconds=seconds, wall_s=float(words[1]), compiles=int(words[3]),
                                                          compile_s=float(words[5]))
    return out


def main(out):
    runs = {s: {t: json.loads(Path(f'runs/kept_{s}_{t}.json').read_text()) for t in TAGS} for s in ('before', 'after')}
    first = json.loads(Path('runs/kept_first_version.json').read_text())['runs']['after']
    speedup = {t: {q: runs['after'][t][f'{q}_queries_per_s'] / runs['before'][t][f'{q}_queries_per_s'] for q in RATES}
               for t in TAGS}
    record = dict(
        what="Answering before and after the prefix engine kept each chain's keys and values (an RTT question's second "
             "pass runs its leaves only, a beam step one token per chain, a context's shared query start once): the "
             "benchmark's timed passes, the quickstart's evaluation and the first command",
        date='2026-12-03', issue=66, machine=cpu(), commit=git('rev-parse', 'HEAD'), before=BEFORE,
        first_version=FIRST, final_version=FINAL, commands=COMMANDS,
        queries_per_s=dict(before=rates(runs['before']), first_version=rates(first), after=rates(runs['after'])),
        speedup=speedup,
        suffix_tokens=dict(first_version={t: {q: first[t][f'{q}_model_calls'][1]['tokens'] for q in RATES} for t in TAGS},
                           after={t: {q: runs['after'][t][f'{q}_model_calls'][1]['tokens'] for q in RATES} for t in TAGS}),
        calls_equal=all(r[f'{q}_model_calls'][0] == r[f'{q}_model_calls'][1]
                        for side in (runs['before'], runs['after'], first) for r in side.values() for q in RATES),
        eval_parts=eval_parts('runs/eval_shapes_both.log'),
        quickstart={k: quickstart(f'runs/kept_{d}/qs.log', f'runs/kept_{d}/metrics.json')
                    for k, d in (('first_version', 'qs1'), ('after', 'qs2')) if Path(f'runs/kept_{d}/qs.log').is_file()},
        runs=dict(before=runs['before'], first_version=first, after=runs['after']))
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    for t in TAGS: print(t, {q: round(x, 2) for q, x in speedup[t].items()})
    print(json.dumps({k: record[k] for k in ('eval_parts', 'calls_equal')}, indent=0))
    print({k: v['wall_s_with_install'] for k, v in record['quickstart'].items()})


if __name__ == '__main__': main(*sys.argv[1:])
