"""The matching core of both pairers: exact answers, checked against brute force on small graphs
and against networkx's blossom implementation on larger ones."""

import random
from functools import cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairings.engines.matching import has_perfect_matching, maximum_matching, pair_top_down


@st.composite
def graphs(draw, max_n: int = 10):
    n = draw(st.integers(min_value=0, max_value=max_n))
    edges = draw(
        st.sets(
            st.tuples(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0))).filter(
                lambda e: e[0] < e[1]
            )
        )
        if n > 1
        else st.just(set())
    )
    adjacent = [[] for _ in range(n)]
    for a, b in edges:
        adjacent[a].append(b)
        adjacent[b].append(a)
    return adjacent


def brute_top_down(adjacent):
    """The rule read literally: the highest unpaired takes the highest allowed partner below
    him with which the rest can still be paired (found by exhaustive search)."""
    edges = {(a, b) for a, nbrs in enumerate(adjacent) for b in nbrs}

    @cache
    def perfect(left: frozenset) -> bool:
        if not left:
            return True
        u = min(left)
        return any((u, v) in edges and perfect(left - {u, v}) for v in left if v != u)

    left = frozenset(range(len(adjacent)))
    if not perfect(left):
        return None
    pairs = []
    while left:
        u = min(left)
        v = next(v for v in sorted(left) if v > u and (u, v) in edges and perfect(left - {u, v}))
        pairs.append((u, v))
        left = left - {u, v}
    return pairs


@given(graphs())
@settings(max_examples=400, deadline=None)
def test_top_down_pairing_is_the_one_the_rule_defines(adjacent):
    assert pair_top_down(adjacent) == brute_top_down(adjacent)


@given(graphs())
@settings(max_examples=300, deadline=None)
def test_a_perfect_matching_is_found_exactly_when_one_exists(adjacent):
    assert has_perfect_matching(adjacent) == (brute_top_down(adjacent) is not None)


def random_graph(n: int, p: float, seed: int):
    rng = random.Random(seed)
    adjacent = [[] for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < p:
                adjacent[a].append(b)
                adjacent[b].append(a)
    return adjacent


@pytest.mark.parametrize("seed", range(30))
def test_maximum_matching_size_agrees_with_networkx(seed):
    n = 20 + seed * 3
    adjacent = random_graph(n, p=2.5 / n if seed % 2 else 0.08, seed=seed)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((a, b) for a, nbrs in enumerate(adjacent) for b in nbrs)
    expected = len(nx.max_weight_matching(graph, maxcardinality=True))
    mate = maximum_matching(adjacent)
    assert all(mate[mate[v]] == v and mate[v] in adjacent[v] for v in range(n) if mate[v] >= 0)
    assert sum(1 for v in range(n) if mate[v] >= 0) == 2 * expected


def test_the_top_player_skips_a_partner_that_would_strand_two_others():
    # Edges 0-1, 0-2, 1-3: greedy pairs 0-1 and strands 2 and 3, who may not meet.
    adjacent = [[1, 2], [0, 3], [0], [1]]
    assert pair_top_down(adjacent) == [(0, 2), (1, 3)]


def test_odd_or_unmatchable_gives_none():
    assert pair_top_down([[1], [0], []]) is None
    assert pair_top_down([[1], [0], [], []]) is None
    assert pair_top_down([]) == []
