"""Build experiments/speed/bench_passes.json: `netlm bench predict` again after its warm-up pass was made to start, like
the timed pass, with no context kept (nbs/35_benchmarks, *Answering*), both engines twice, on the 2-core machine with
the experiments queue paused (SIGSTOP) for their minutes. The JSON lines the commands print are kept under runs/ first.
From the repository root: `python -m experiments.speed.bench_passes experiments/speed/bench_passes.json`."""
import json, sys
from pathlib import Path

from experiments.common import git
from experiments.speed.answers_cpu import RATES, cpu

COMMAND = 'netlm bench predict --set engine=E probes=6 queries=90 (last line: runs/bench_passes_E_N.json, N = 1, 2)'


def main(out):
    runs = {e: [json.loads(Path(f'runs/bench_passes_{e}_{n}.json').read_text()) for n in (1, 2)] for e in ('tree', 'prefix')}
    before = json.loads(Path('experiments/speed/answers_cpu.json').read_text())
    record = dict(
        what="The predictor's four questions per second, prefix engine (kept keys and values) against packed rows, "
             "measured with both passes of a question starting from no kept context",
        date='2026-12-03', issue=66, machine=cpu(), commit=git('rev-parse', 'HEAD'), command=COMMAND, runs=runs,
        speedup={q: [p[f'{q}_queries_per_s'] / t[f'{q}_queries_per_s'] for p, t in zip(runs['prefix'], runs['tree'])]
                 for q in RATES},
        speedup_before={q: before['predict_speedup'][q] for q in RATES},
        calls_equal=all(r[f'{q}_model_calls'][0] == r[f'{q}_model_calls'][1] for r in runs['prefix'] for q in RATES))
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    print({q: [round(x, 2) for x in v] for q, v in record['speedup'].items()}, record['calls_equal'])


if __name__ == '__main__': main(*sys.argv[1:])
