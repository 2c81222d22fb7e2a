#!/usr/bin/env python3
"""netlm's test run: notebooks and package in sync, README in sync, the docs site's links, then every notebook executed
(nbs/ and the journal's, experiments/*.ipynb).

The notebooks run through nbdev's own `test_nb` (what `nbdev_test` calls), in parallel, with the
same file selection and `tst_flags` handling; unlike `nbdev_test`, this prints each notebook's
result and time and a closing `N passed, N failed` line.
"""
import argparse, filecmp, os, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JOURNAL = ROOT / 'experiments'      # the lab journal beside the library: its notebooks run with the rest, not exported or documented


def check_export() -> bool:
    "True when nbdev_export leaves netlm/ unchanged."
    with tempfile.TemporaryDirectory() as tmp:
        snap = Path(tmp) / 'netlm'
        shutil.copytree(ROOT / 'netlm', snap, ignore=shutil.ignore_patterns('__pycache__'))
        r = subprocess.run([str(Path(sys.executable).parent / 'nbdev_export')], cwd=ROOT, capture_output=True, text=True)
        if r.returncode: print(r.stdout, r.stderr); return False
        cmp = filecmp.dircmp(snap, ROOT / 'netlm', ignore=['__pycache__'])
        changed = cmp.diff_files + cmp.left_only + cmp.right_only
        if changed: print(f'OUT OF SYNC: nbdev_export changed {changed}: export the notebooks and commit netlm/ with them')
        return not changed


def check_docs(screenshots: str | None) -> bool:
    """True when `scripts/docs --check` finds every page, link and image. With Chromium (or with `screenshots`, a
    folder to keep them in), also that four pages render in it: without, that step is skipped with the reason."""
    from netlm.testing import find_chromium
    cmd = [sys.executable, str(ROOT / 'scripts' / 'docs'), '--check']
    with tempfile.TemporaryDirectory() as tmp:
        if screenshots: cmd += ['--screenshots', screenshots]   # kept: built with syntax colouring, as committed
        elif find_chromium(): cmd += ['--plain', '--screenshots', tmp]
        else: cmd += ['--plain']; print('docs screenshots skipped: no chromium (scripts/install_browser installs Debian\'s)')
        r = subprocess.run(cmd, capture_output=True, text=True)
    print((r.stdout + r.stderr).strip(), flush=True)
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('path', nargs='?', default=None, help='a notebook or glob (default: every notebook of nbs/ and the journal, experiments/*.ipynb)')
    ap.add_argument('--flags', default='', help='space-separated tst_flags to run (e.g. "slow")')
    ap.add_argument('--n-workers', type=int, default=None)
    ap.add_argument('--screenshots', metavar='DIR', help="keep the docs pages' screenshots in DIR (e.g. nbs/images)")
    args = ap.parse_args()

    from fastcore.parallel import parallel
    from nbdev.config import get_config
    from nbdev.doclinks import nbglob
    from nbdev.test import test_nb, _keep_file

    failures = []
    if not check_export(): failures.append('nbdev_export sync')
    r = subprocess.run([sys.executable, str(ROOT / 'scripts' / 'make_readme.py'), '--check'], capture_output=True, text=True)
    print((r.stdout + r.stderr).strip())
    if r.returncode: failures.append('README sync')
    if not check_docs(args.screenshots): failures.append('docs check')

    cfg = get_config()
    found = nbglob(args.path, as_path=True) if args.path else [*nbglob(as_path=True), *JOURNAL.glob('*.ipynb')]
    files = [f.absolute() for f in sorted(found) if _keep_file(f, '.notest')]
    n_workers = args.n_workers if args.n_workers is not None else min(len(files), 2)
    print(f'running {len(files)} notebooks with {n_workers} workers, skipping cells flagged {cfg.tst_flags.split()} '
          f'unless forced ({args.flags or "none forced"})', flush=True)
    t0 = time.time()
    os.chdir(cfg.nbs_path)
    results = parallel(test_nb, files, skip_flags=cfg.tst_flags.split(), force_flags=args.flags.split(),
                       n_workers=n_workers, basepath=cfg.config_path, pause=0.01)
    passed = [f for f, (ok, _) in zip(files, results) if ok]
    failed = [f for f, (ok, _) in zip(files, results) if not ok]
    for f, (ok, secs) in zip(files, results): print(f"{'PASS' if ok else 'FAIL'} {f.relative_to(ROOT)} ({secs:.0f} s)")
    for what in failures: print(f'FAIL {what}')
    print(f'notebooks ran in {time.time() - t0:.0f} s')
    print(f'{len(passed)} passed, {len(failed) + len(failures)} failed')
    sys.exit(1 if failed or failures else 0)


if __name__ == '__main__':
    main()
