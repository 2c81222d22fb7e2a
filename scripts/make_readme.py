#!/usr/bin/env python3
"""Write README.md from nbs/index.ipynb (or, with --check, fail if README.md is stale).

nbdev_readme needs Quarto, which cannot be installed on our machines, so this does the same job
deterministically: markdown cells as they are (Quarto's ```{mermaid} diagrams become GitHub's
```mermaid), code cells that are not `#| hide` as Python blocks followed by their stored text outputs.
"""
import json, posixpath, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCAL_LINK = re.compile(r'\]\((?![a-z]+:|#|/)([^)\s]+\.(?:ipynb|png|svg|md))\)')   # ](40_experiments.ipynb), ](images/x.png)
HEADER = '<!-- Generated from nbs/index.ipynb by scripts/make_readme.py: edit the notebook, not this file. -->\n\n'


def render(nb_path: Path) -> str:
    parts = []
    for cell in json.loads(nb_path.read_text())['cells']:
        src = ''.join(cell['source']).strip('\n')
        if cell['cell_type'] == 'markdown':
            # nbdev's title convention: "# Title" then "> summary"; relative links point into nbs/, seen from the root
            # (../experiments/journal.ipynb becomes experiments/journal.ipynb)
            parts.append(LOCAL_LINK.sub(lambda m: f"]({posixpath.normpath('nbs/' + m[1])})", src.replace('```{mermaid}', '```mermaid')))
            continue
        lines = src.splitlines()
        if any(l.strip() in ('#| hide', '#|hide') for l in lines) or not src: continue
        code = '\n'.join(l for l in lines if not l.startswith('#|'))
        parts.append(f'```python\n{code}\n```')
        for out in cell.get('outputs', []):
            text = out.get('text') or out.get('data', {}).get('text/plain')
            if text: parts.append('    ' + ''.join(text).rstrip('\n').replace('\n', '\n    '))
    return HEADER + '\n\n'.join(parts) + '\n'


def main():
    text, readme = render(ROOT / 'nbs' / 'index.ipynb'), ROOT / 'README.md'
    if '--check' in sys.argv:
        if not readme.exists() or readme.read_text() != text:
            sys.exit('README.md does not match nbs/index.ipynb: run `python scripts/make_readme.py`')
        print('README.md matches nbs/index.ipynb')
    else:
        readme.write_text(text)
        print(f'wrote {readme}')


if __name__ == '__main__':
    main()
