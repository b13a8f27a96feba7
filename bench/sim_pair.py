#!/usr/bin/env python3
"""sim_pair.py BOT FILE [BOT2 FILE2]: a bot's share of the wins in a `deckhand sim --each`
run, with its 95% Wilson interval; with a second run of the same --seed and --games
(the same deals, game by game), the paired comparison: the second bot's share on those
games, the mean difference per game with its standard error, and the games the first
run turned for and against (docs/BENCHMARKS.md, issue 28, fourteenth round).

A game's share is 1 for a win, 1/k for a win shared by k seats, 0 otherwise. Several
runs of one side may be given joined with commas (FILE=a.log,b.log); their games are kept
apart by file, so the two sides must list their seeds' files in the same order.
"""
import math
import re
import sys


GAME = re.compile(r'game (\d+) seed \d+ bots (\S+) ranks (\S+) turns')


def game_line(line):
    """A `--each` line `game I seed S bots A,B ranks R,R turns T,T`: (I, bots, ranks), or
    None for any other line (sim_departures.py reads them too)."""
    m = GAME.match(line)
    if not m:
        return None
    return int(m.group(1)), m.group(2).split(','), [int(r) for r in m.group(3).split(',')]


def shares(paths, bot):
    out = {}
    for i, path in enumerate(paths.split(',')):
        for line in open(path, encoding='utf-8'):
            game = game_line(line)
            if not game:
                continue
            index, bots, ranks = game
            won = [s for s, r in enumerate(ranks) if r == 1]
            out[(i, index)] = sum(1.0 / len(won) for s in won if bots[s] == bot)
    return out


def wilson(p, n, z=1.96):
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main(argv):
    a = shares(argv[2], argv[1])
    if not a:
        sys.exit(f'no games of {argv[1]} in {argv[2]}')
    p = sum(a.values()) / len(a)
    lo, hi = wilson(p, len(a))
    print(f'{argv[1]}: {100 * p:.2f}% ({100 * lo:.1f}-{100 * hi:.1f}) over {len(a)} games')
    if len(argv) < 5:
        return
    b = shares(argv[4], argv[3])
    both = sorted(set(a) & set(b))
    if len(both) < 2:
        sys.exit('the two runs share fewer than 2 games')
    d = [a[k] - b[k] for k in both]
    mean = sum(d) / len(d)
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1) / len(d))
    pb = sum(b[k] for k in both) / len(both)
    turned_for = sum(x for x in d if x > 0)
    turned_against = -sum(x for x in d if x < 0)
    print(f'{argv[3]} on the same {len(both)} games: {100 * pb:.2f}%; '
          f'difference {100 * mean:+.2f} points (se {100 * se:.2f}), '
          f'games turned for {turned_for:g}, against {turned_against:g}')


if __name__ == '__main__':
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__)
    main(sys.argv)
