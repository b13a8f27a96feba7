#!/usr/bin/env python3
"""sim_departures.py [--detail POLICY:CHOSEN] FILE...: where a search bot leaves its play-out policy,
tabulated (docs/BENCHMARKS.md, issue 28, fourteenth round).

Reads the output of `deckhand sim --each --departures` in a two-player Province game
(Dominion, Accession): each `departure` line (printed before its game's `game` line) is
joined with that game's result. Prints, by (the policy's buy or play, the search's), how
many departures there were, the searching seat's share of those games' wins, and how many
at each count of Provinces left; with --detail POLICY:CHOSEN, each such departure's
Provinces left, score lead (the searching seat's points minus the other's), coins and
buys. Provinces left and points are counted from the seats' cards (a Province 6, a Duchy
3, an Estate 1; 8 Provinces in the supply), so the figures hold for two players without
Gardens or Curses.
"""
import collections
import re
import sys

from sim_pair import game_line

POINTS = {'Estate': 1, 'Duchy': 3, 'Province': 6}
PROVINCES = 8


def answers(text):
    """The card names of an answer's `[LABEL|CARD]` items ('-' for none)."""
    names = re.findall(r'\|([^\]]*)\]', text)
    return '+'.join(n for n in names if n) or '-'


def parse(paths):
    out = []
    for path in paths:
        pending = []
        for line in open(path, encoding='utf-8'):
            if line.startswith('departure '):
                pending.append(line.rstrip('\n'))
                continue
            game = game_line(line)
            if not game:
                continue
            ranks = game[2]
            winners = ranks.count(1)
            for d in pending:
                head = re.match(r'departure \d+ seat (\d+) kind (\S+) prompt \[([^\]]*)\] '
                                r'chose (.*?) policy (.*?) \| (P0 .*)$', d)
                if not head:
                    continue
                seat = int(head.group(1))
                decks = []
                for part in head.group(6).split(' | '):
                    cards = re.findall(r' ([^=]+?)=(\d+)', part[part.find(' '):])
                    decks.append({k: int(v) for k, v in cards})
                if len(decks) != 2:
                    continue
                points = [sum(POINTS.get(k, 0) * v for k, v in deck.items()) for deck in decks]
                coins = re.search(r'\$(\d+)', head.group(3))
                buys = re.search(r'(\d+) buys?', head.group(3))
                out.append({
                    'kind': head.group(2), 'chose': answers(head.group(4)),
                    'policy': answers(head.group(5)),
                    'won': (1.0 / winners) if ranks[seat] == 1 else 0.0,
                    'left': PROVINCES - sum(deck.get('Province', 0) for deck in decks),
                    'lead': points[seat] - points[1 - seat],
                    'coins': int(coins.group(1)) if coins else None,
                    'buys': int(buys.group(1)) if buys else None,
                })
            pending = []
    return out


def main(argv):
    detail = None
    if len(argv) > 2 and argv[1] == '--detail':
        detail = tuple(argv[2].split(':'))
        argv = argv[2:]
    rows = parse(argv[1:])
    print(f'{len(rows)} departures')
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r['kind'], r['policy'], r['chose'])].append(r)
    print('count  kind    policy -> chose            won   Provinces left: count')
    for (kind, policy, chose), rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        won = sum(r['won'] for r in rs) / len(rs)
        left = collections.Counter(r['left'] for r in rs)
        spread = ' '.join(f'{k}:{n}' for k, n in sorted(left.items()))
        print(f'{len(rs):5d}  {kind:7s} {policy:>10s} -> {chose:14s} {won:5.2f}  {spread}')
    if detail:
        print(f'{detail[0]} -> {detail[1]}: Provinces left, lead, coins, buys: count')
        sel = collections.Counter((r['left'], r['lead'], r['coins'], r['buys']) for r in rows
                                  if (r['policy'], r['chose']) == detail)
        for key, n in sorted(sel.items()):
            print(f'  {key[0]} {key[1]:+d} ${key[2]} {key[3]}: {n}')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv)
