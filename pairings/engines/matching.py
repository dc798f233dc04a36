"""Perfect matchings for pairing rounds: "can everyone left still be paired?" answered exactly.

Both pairers (Keizer, rules.md §4.3, and the Monrad pairing of chess groups, §3) pair top-down:
the highest unpaired player gets the highest player below him such that the pair is allowed
and everyone left can still be paired. That last condition is a perfect-matching question on
the graph of allowed pairs; it is answered here with Edmonds' blossom algorithm, never with a
capped search, so a pairing is found whenever one exists.

Players are the vertices 0..n-1 in pairing order (0 = highest). `adjacent[v]` lists the players
v may be paired with. Everything is deterministic: the same graph gives the same pairing.

Cost: building the graph is the floor any pairer pays (n² rule checks). `pair_top_down` keeps a
perfect matching of the players not yet paired and, for each candidate pair, repairs it with one
augmenting-path search instead of matching everything again; a greedy start in pairing order
makes most candidates agree with it at once.
"""

from collections import deque
from collections.abc import Sequence

Adjacency = Sequence[Sequence[int]]
UNMATCHED = -1


class _Matcher:
    """A matching on the live vertices of a graph, grown by augmenting paths (Edmonds)."""

    def __init__(self, adjacent: Adjacency, live: list[bool] | None = None) -> None:
        self.n = len(adjacent)
        self.adjacent = [sorted(set(a)) for a in adjacent]
        self.live = list(live) if live is not None else [True] * self.n
        self.mate = [UNMATCHED] * self.n

    def greedy(self, order: Sequence[int]) -> None:
        """Match in pairing order, each with the first free neighbour: a good start."""
        for v in order:
            if not self.live[v] or self.mate[v] != UNMATCHED:
                continue
            for w in self.adjacent[v]:
                if self.live[w] and self.mate[w] == UNMATCHED and w != v:
                    self.mate[v], self.mate[w] = w, v
                    break

    def maximise(self) -> int:
        """Augment until no augmenting path is left (Berge): the matching is maximum. Returns
        the number of live vertices left unmatched."""
        for v in range(self.n):
            if self.live[v] and self.mate[v] == UNMATCHED:
                self.augment_from(v)
        return sum(1 for v in range(self.n) if self.live[v] and self.mate[v] == UNMATCHED)

    def augment_from(self, root: int) -> bool:
        """Search an augmenting path from the exposed vertex `root`; flip it if found."""
        end, parent = self._search(root)
        if end == UNMATCHED:
            return False
        v = end
        while v != UNMATCHED:
            pv = parent[v]
            next_v = self.mate[pv]
            self.mate[v], self.mate[pv] = pv, v
            v = next_v
        return True

    def _search(self, root: int) -> tuple[int, list[int]]:
        n, mate, live = self.n, self.mate, self.live
        used = [False] * n
        parent = [UNMATCHED] * n
        base = list(range(n))
        used[root] = True
        queue = deque([root])

        def lca(a: int, b: int) -> int:
            seen = [False] * n
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == UNMATCHED:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
            while base[v] != b:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in self.adjacent[v]:
                if not live[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != UNMATCHED and parent[mate[to]] != UNMATCHED):
                    current = lca(v, to)
                    blossom = [False] * n
                    mark(v, current, to, blossom)
                    mark(to, current, v, blossom)
                    for i in range(n):
                        if live[i] and blossom[base[i]]:
                            base[i] = current
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == UNMATCHED:
                    parent[to] = v
                    if mate[to] == UNMATCHED:
                        return to, parent
                    used[mate[to]] = True
                    queue.append(mate[to])
        return UNMATCHED, parent


def has_perfect_matching(adjacent: Adjacency, live: list[bool] | None = None) -> bool:
    """Whether the live vertices (all by default) can all be paired along allowed edges."""
    matcher = _Matcher(adjacent, live)
    if sum(matcher.live) % 2:
        return False
    matcher.greedy(range(matcher.n))
    return matcher.maximise() == 0


def maximum_matching(adjacent: Adjacency) -> list[int]:
    """A maximum matching: mate[v] is v's partner, or -1."""
    matcher = _Matcher(adjacent)
    matcher.greedy(range(matcher.n))
    matcher.maximise()
    return list(matcher.mate)


def pair_top_down(adjacent: Adjacency) -> list[tuple[int, int]] | None:
    """rules.md §4.3 step 3 (and §3's Monrad pairing): vertices in pairing order; the highest
    unpaired vertex gets the highest vertex below it such that the pair is an edge and all the
    others can still be paired. None when no perfect matching exists at all."""
    matcher = _Matcher(adjacent)
    n = matcher.n
    if n % 2:
        return None
    matcher.greedy(range(n))
    if matcher.maximise():
        return None
    mate, live = matcher.mate, matcher.live
    pairs: list[tuple[int, int]] = []
    for u in range(n):
        if not live[u]:
            continue
        for v in matcher.adjacent[u]:
            if v <= u or not live[v]:
                continue
            if mate[u] == v or _rematch_without(matcher, u, v):
                break
        else:  # pragma: no cover - a perfect matching always pairs u somehow
            raise AssertionError("no partner in a perfect matching")
        pairs.append((u, v))
        live[u] = live[v] = False
    return pairs


def _rematch_without(matcher: _Matcher, u: int, v: int) -> bool:
    """Pair u with v if the others can still all be paired: take u, v out of the perfect
    matching and repair it with one augmenting path between their former partners."""
    mate, live = matcher.mate, matcher.live
    u_mate, v_mate = mate[u], mate[v]
    live[u] = live[v] = False
    mate[u_mate] = mate[v_mate] = UNMATCHED
    if matcher.augment_from(u_mate):
        mate[u], mate[v] = v, u
        live[u] = live[v] = True  # the caller takes them out
        return True
    live[u] = live[v] = True
    mate[u], mate[u_mate] = u_mate, u
    mate[v], mate[v_mate] = v_mate, v
    return False
