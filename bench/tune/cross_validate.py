#!/usr/bin/env python3
"""Leave-shapes-out validation of the tuner, offline, with `tle-tune simulate`.

The training shapes (bench/tune/llm_shapes.txt, with a source column) are
split into folds: by model family (--split model; Mistral-7B's LM head goes
with Llama-3-8B, whose layers it shares) or by token count (--split m). For
each fold, the cost model is trained (--train-db) on the training file's
records of the OTHER folds only -- records of any shape with the same (N, K)
as a held-out shape are removed as well -- and the tuner runs on the held-out
shapes with measurements looked up in --oracle (an exhaustive run); picks are
compared with --truth (default: the oracle). The ratios of all folds are
pooled into one geometric mean and one measurement count.

Example (docs/tune.md, "Choosing the strategy offline"):
  python3 bench/tune/cross_validate.py --tle-tune bench/bin/tle-tune-nvidia \\
    --bundle bench/bin/tune/matmul_fp16 --shapes bench/tune/llm_shapes.txt \\
    --train bench/tune/train_h200.tsv --oracle RERUN.tsv --truth bench/tune/train_h200.tsv \\
    --sim "--budget 5 --top-k 3 --warm-shapes 0 --own-weight 20 --model-depth 7 --model-rounds 100 --model-eta 0.1"
"""
import argparse, collections, math, os, re, subprocess, sys, tempfile

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--tle-tune', required=True, help='tle-tune or tle-tune-nvidia')
ap.add_argument('--bundle', required=True)
ap.add_argument('--shapes', required=True, help='shape list with a source column')
ap.add_argument('--train', required=True, help='results file the folds are cut from')
ap.add_argument('--oracle', required=True, help='exhaustive run that stands in for the device')
ap.add_argument('--truth', default=None, help='exhaustive run the picks are compared with')
ap.add_argument('--split', default='model', choices=['model', 'm'])
ap.add_argument('--sim', default='', help='tuner options passed to simulate')
ap.add_argument('--work', default=None, help='folder for the fold files')
ap.add_argument('-v', action='store_true', help='print each shape off by more than 0.5%%')
a = ap.parse_args()
work = a.work or tempfile.mkdtemp(prefix='tle-tune-cv-')
os.makedirs(work, exist_ok=True)

shapes = []
for line in open(a.shapes):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    f = line.split()
    fam = f[3] if len(f) > 3 else 'all'
    if fam == 'Mistral-7B':
        fam = 'Llama-3-8B'
    shapes.append((int(f[0]), int(f[1]), int(f[2]), fam))
if not shapes:
    sys.exit('cross_validate: no shapes in %s' % a.shapes)
key = lambda s: 'M=%d,N=%d,K=%d' % s[:3]
folds = collections.OrderedDict()
for s in shapes:
    folds.setdefault(s[3] if a.split == 'model' else 'M=%d' % s[0], []).append(s)
if len(folds) < 2:
    sys.exit('cross_validate: one fold only; nothing to hold out')

train = open(a.train).read().splitlines()
logs, measured, exhaustive = [], 0, 0
for name, held in folds.items():
    held_keys = {key(s) for s in held}
    held_nk = {(s[1], s[2]) for s in held} if a.split == 'model' else set()

    def keep(line):
        if line.startswith('#'):
            return True
        shape = line.split('\t')[2]
        if shape in held_keys:
            return False
        d = dict(kv.split('=') for kv in shape.split(','))
        return (int(d['N']), int(d['K'])) not in held_nk

    tag = re.sub(r'[^A-Za-z0-9]+', '_', name)
    tf = os.path.join(work, 'train_%s.tsv' % tag)
    with open(tf, 'w') as f:
        f.write('\n'.join(l for l in train if keep(l)) + '\n')
    sf = os.path.join(work, 'shapes_%s.txt' % tag)
    with open(sf, 'w') as f:
        f.write(''.join('%d %d %d\n' % s[:3] for s in held))
    cmd = [a.tle_tune, 'simulate', a.bundle, '--shapes', sf, '--oracle', a.oracle,
           '--train-db', tf, '-v'] + (['--truth', a.truth] if a.truth else []) + a.sim.split()
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        sys.exit('cross_validate: %s failed:\n%s%s' % (' '.join(cmd), out.stderr, out.stdout))
    fold = []
    for line in out.stdout.splitlines():
        if not line.startswith('| M='):
            continue
        f = [x.strip() for x in line.strip('|').split('|')]
        r = float(f[6])
        fold.append(math.log(r))
        exhaustive += int(f[7])
        measured += int(f[8])
        if a.v and r > 1.005:
            print('  %-12s %-22s %.3f picked %s, best %s' % (name, f[0], r, f[3], f[2]))
    logs += fold
    print('%-12s %2d shapes, geomean pick/best %.4f' % (name, len(fold), math.exp(sum(fold) / len(fold))))
print('all: %d shapes, geomean pick/best %.4f, worst %.3f, measured %d vs %d exhaustive (%.1fx fewer)'
      % (len(logs), math.exp(sum(logs) / len(logs)), math.exp(max(logs)), measured, exhaustive,
         exhaustive / max(1, measured)))
