"""Build experiments/speed/compile_cache.json: the quickstart's evaluation of one trained run by `netlm eval`, with the
compiled programs not kept (`NETLM_COMPILE_CACHE=0`), kept in an empty folder (cold), then found there (warm, twice),
on the 2-core machine with nothing else running (nbs/02_config, *Compiled programs, kept between processes*); then,
once the folder's size was bounded (JAX then locks it for each read and write: the `filelock` package), cold and warm
again in another empty folder (`runs/cc_lock.sh`, tags lock_cold and lock_warm). And the first command from a fresh
clone with the install, twice, both with `NETLM_COMPILE_CACHE=/tmp/qs_cache`: empty the first time (as on a new
machine), then holding what the first left (`git clone REPO /tmp/qs && cd /tmp/qs && NETLM_COMPILE_CACHE=/tmp/qs_cache
/usr/bin/time -v ./scripts/quickstart --workdir /tmp/qs_work`; runs/qs_cc1/, runs/qs_cc2/: the log, the report as
qs_report.md, the evaluation's metrics.json). Its training is three minutes of wall time, so its steps differ.
The runs: `runs/cc.sh` made them, each `NETLM_COMPILE_CACHE=C /usr/bin/time netlm eval --workdir runs/rb_q_ft --data
runs/rb_q/rows --ip-queries 200 --inverse-queries 100 --no-progress --out runs/cc_TAG` (runs/rb_q_ft: the FS record's
seed-0 fine-tune on the quickstart's world); their metrics.json and times stay under runs/. From the repository root:
`python -m experiments.speed.compile_cache experiments/speed/compile_cache.json`."""
import json, sys
from pathlib import Path

from experiments.common import git
from experiments.speed.answers_cpu import cpu, quickstart

TAGS = ('off', 'cold', 'warm1', 'warm2', 'lock_cold', 'lock_warm')


def cache_folder() -> dict:
    "The folder's size and entries after the four runs, as `du -sh` and `ls | wc -l` printed them in runs/cc.out."
    lines = Path('runs/cc.out').read_text().splitlines()
    at = next(i for i, l in enumerate(lines) if l.endswith('/tmp/xla_meas'))
    return dict(size=lines[at].split()[0], entries=int(lines[at + 1]))


def main(out):
    runs = {}
    for t in TAGS:
        wall, _, rss, _ = Path(f'runs/cc_{t}.time').read_text().split()
        m = json.loads(Path(f'runs/cc_{t}/metrics.json').read_text())
        runs[t] = dict(wall_s=float(wall), peak_rss_mib=round(int(rss) / 1024), seconds=m['seconds'],
                       model_median_ae_ms=round(m['rtt']['model']['median_ae_ms'], 3))
    same = len({r['model_median_ae_ms'] for r in runs.values()}) == 1
    record = dict(
        what="The quickstart's evaluation of one run, XLA's compiled programs not kept, kept from an empty folder, "
             "then found there",
        date='2026-12-03', issue=66, machine=cpu(), commit=git('rev-parse', 'HEAD'),
        command='NETLM_COMPILE_CACHE=C netlm eval --workdir runs/rb_q_ft --data runs/rb_q/rows --ip-queries 200 '
                '--inverse-queries 100 --no-progress --out runs/cc_TAG (C = 0 for off, a fresh folder for cold and warm)',
        runs=runs, same_answers=same,
        speedup_warm={t: round(runs['off']['wall_s'] / runs[t]['wall_s'], 2) for t in TAGS[1:]},
        cache_folder=cache_folder(),
        quickstart=dict(cold=quickstart('runs/qs_cc1/qs.log', 'runs/qs_cc1/metrics.json'),
                        warm=quickstart('runs/qs_cc2/qs.log', 'runs/qs_cc2/metrics.json')))
    Path(out).write_text(json.dumps(record, indent=1) + '\n')
    print(json.dumps({t: (r['wall_s'], r['seconds']) for t, r in runs.items()}), same, record['speedup_warm'])


if __name__ == '__main__': main(*sys.argv[1:])
