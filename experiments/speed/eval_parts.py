"""The quickstart's evaluation of one trained run, its parts timed and XLA's compilations counted (for
experiments/speed/kept_chains.json): `evaluate_run` with the quickstart's 200 completions and 100 inverse searches.
From the repository root (before: with PYTHONPATH on a worktree of the older commit):
`python -m experiments.speed.eval_parts RUN ROWS 200 100`; the last line: the parts' seconds, the wall time, the
compilations and their seconds."""
import sys, time

from jax._src import compiler

from netlm.pipeline import evaluate_run

count = [0, 0.0]
_compile = compiler.backend_compile_and_load


def _counted(*args, **kwargs):
    t0 = time.perf_counter(); out = _compile(*args, **kwargs)
    count[0] += 1; count[1] += time.perf_counter() - t0
    return out


def main(run, rows, ip_queries, inverse_queries):
    compiler.backend_compile_and_load = _counted           # every XLA compilation of the process passes here
    t0 = time.perf_counter()
    m = evaluate_run(run, rows, out_dir='/tmp/netlm-eval-parts', progress=False, ip_queries=int(ip_queries),
                     inverse_queries=int(inverse_queries))
    print('seconds', m['seconds'], 'wall', round(time.perf_counter() - t0, 1), 'compiles', count[0], 'compile_s',
          round(count[1], 1))


if __name__ == '__main__': main(*sys.argv[1:])
