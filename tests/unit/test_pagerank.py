"""Adapted PageRank of EACL 2017 (Sec. 4.1) and classic PageRank, against hand arithmetic,
a dense linear solve and networkx."""

from __future__ import annotations

import pickle

import networkx as nx
import numpy as np
import pytest

from argkb.errors import ArgKBError
from argkb.rank.pagerank import (
    ConvergenceError,
    GraphInputError,
    SelfReuse,
    Shared,
    argument_pagerank,
    build_argument_transition,
    build_transition,
    classic_pagerank,
    ground_from_sources,
    power_iteration,
    premise_csr,
    unit_edges,
)


def csr(premise_lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """CSR premise arrays from a list of premise lists, kept as given."""
    indptr = np.concatenate([[0], np.cumsum([len(p) for p in premise_lists])]).astype(np.int64)
    units = np.array([u for p in premise_lists for u in p], dtype=np.int64)
    return indptr, units


def random_arguments(
    seed: int, n_units: int, n_args: int, max_premises: int = 4
) -> tuple[np.ndarray, list[list[int]]]:
    """Random arguments, including empty premise lists, self-reuse and repeated premises."""
    rng = np.random.default_rng(seed)
    conclusions = rng.integers(0, n_units, size=n_args)
    premises = [
        [int(u) for u in rng.integers(0, n_units, size=rng.integers(0, max_premises + 1))]
        for _ in range(n_args)
    ]
    premises[0] = [int(conclusions[0]), (int(conclusions[0]) + 1) % n_units]  # self-reuse
    premises[1] = [2, 2, 3]  # a repeated premise
    return conclusions, premises


def networkx_unit_graph(
    n_units: int, conclusions: np.ndarray, premises: list[list[int]], shared: str
) -> nx.MultiDiGraph:
    """The unit graph written directly from the module docstring's rules, without argkb code."""
    graph: nx.MultiDiGraph[int] = nx.MultiDiGraph()
    graph.add_nodes_from(range(n_units))
    for c, plist in zip(conclusions.tolist(), premises, strict=True):
        pset = set(plist) - {c}  # P_i is a set; self-reuse dropped
        for p in pset:
            graph.add_edge(c, p, weight=1.0 / len(pset) if shared == "split" else 1.0)
    return graph


# --- hand-computed cases -------------------------------------------------------------------------


def test_chain_literal_formula_by_hand() -> None:
    # Units 0, 1, 2; argument 0: 0 <- {1}; argument 1: 1 <- {2}. alpha 0.85, ground 1/3.
    # p(0) = 0.15/3 = 0.05 (no argument uses 0 as a premise)
    # p(1) = 0.05 + 0.85 * p(0)/1 = 0.05 + 0.0425 = 0.0925
    # p(2) = 0.05 + 0.85 * p(1)/1 = 0.05 + 0.078625 = 0.128625
    res = argument_pagerank(3, [0, 1], *csr([[1], [2]]), dangling="drop")
    np.testing.assert_allclose(res.scores, [0.05, 0.0925, 0.128625], rtol=0, atol=1e-12)


def test_chain_with_dangling_mass_returned_by_ground() -> None:
    # Unit 2 concludes nothing, so it is dangling; its score x2 goes back uniformly:
    # x0 = (0.15 + 0.85*x2)/3, x1 = x0 + 0.85*x0 = 1.85*x0, x2 = x0 + 0.85*x1 = 2.5725*x0,
    # and x0 + x1 + x2 = 1 gives x0 = 1/5.4225.
    res = argument_pagerank(3, [0, 1], *csr([[1], [2]]))
    x0 = 1 / 5.4225
    np.testing.assert_allclose(res.scores, [x0, 1.85 * x0, 2.5725 * x0], rtol=1e-9)
    assert res.scores.sum() == pytest.approx(1.0, abs=1e-12)
    # Same ranking as the literal formula: literal scores divided by their sum 0.271125.
    literal = np.array([0.05, 0.0925, 0.128625])
    np.testing.assert_allclose(res.scores, literal / literal.sum(), rtol=1e-9)


def test_shared_conclusion_split_and_pool_by_hand() -> None:
    # Unit 0 concludes argument 0 with P = {1, 2} and argument 1 with P = {3}.
    # alpha 0.5, ground 1/4, literal formula: teleport term 0.5 * 0.25 = 0.125.
    # p(0) = 0.125 (not a premise anywhere).
    # split: each argument gets p(0)/2; argument 0 passes p(0)/(2*2) to 1 and 2, argument 1
    #   passes p(0)/(2*1) to 3: p(1) = p(2) = 0.125 + 0.5*0.125/4 = 0.140625,
    #   p(3) = 0.125 + 0.5*0.125/2 = 0.15625.
    # pool: three premise slots share p(0): p(1..3) = 0.125 + 0.5*0.125/3.
    args = ([0, 0], *csr([[1, 2], [3]]))
    split = argument_pagerank(4, *args, alpha=0.5, dangling="drop")
    np.testing.assert_allclose(split.scores, [0.125, 0.140625, 0.140625, 0.15625], atol=1e-12)
    pool = argument_pagerank(4, *args, alpha=0.5, dangling="drop", shared="pool")
    third = 0.125 + 0.5 * 0.125 / 3
    np.testing.assert_allclose(pool.scores, [0.125, third, third, third], atol=1e-12)


def test_reused_conclusion_star_by_hand() -> None:
    # Unit 3 concludes argument 3 (3 <- {4}) and is the only premise of arguments 0 <- {3},
    # 1 <- {3}, 2 <- {3}. alpha 0.5, ground 1/5, literal: teleport term 0.1.
    # p(0) = p(1) = p(2) = 0.1; p(3) = 0.1 + 0.5*(0.1 + 0.1 + 0.1) = 0.25;
    # p(4) = 0.1 + 0.5*p(3) = 0.225. The reused unit ranks first (citation idea, Sec. 4.2).
    res = argument_pagerank(5, [0, 1, 2, 3], *csr([[3], [3], [3], [4]]), alpha=0.5, dangling="drop")
    np.testing.assert_allclose(res.scores, [0.1, 0.1, 0.1, 0.25, 0.225], atol=1e-12)
    assert int(np.argmax(res.scores)) == 3


def test_two_cycle_with_source_ground_by_hand() -> None:
    # 0 <- {1} and 1 <- {0}; ground (3, 1) scaled to (0.75, 0.25); alpha 0.5.
    # p0 = 0.5*0.75 + 0.5*p1, p1 = 0.5*0.25 + 0.5*p0  =>  0.75*p0 = 0.4375, p0 = 7/12, p1 = 5/12.
    # No unit is dangling, so both dangling rules give the same scores, summing to 1.
    for dangling in ("ground", "drop"):
        res = argument_pagerank(
            2, [0, 1], *csr([[1], [0]]), alpha=0.5, ground=[3.0, 1.0], dangling=dangling, tol=1e-14
        )
        np.testing.assert_allclose(res.scores, [7 / 12, 5 / 12], atol=1e-12)


def test_self_reuse_drop_and_keep_by_hand() -> None:
    # One argument 0 <- {0, 1}; alpha 0.5, ground 1/2, literal: teleport term 0.25.
    # drop: P = {1}: p0 = 0.25, p1 = 0.25 + 0.5*p0 = 0.375.
    # keep: P = {0, 1}: p0 = 0.25 + 0.5*p0/2 => p0 = 1/3; p1 = 0.25 + 0.5*(1/3)/2 = 1/3.
    args = ([0], *csr([[0, 1]]))
    drop = argument_pagerank(2, *args, alpha=0.5, dangling="drop", tol=1e-14)
    np.testing.assert_allclose(drop.scores, [0.25, 0.375], atol=1e-12)
    keep = argument_pagerank(2, *args, alpha=0.5, dangling="drop", self_reuse="keep", tol=1e-14)
    np.testing.assert_allclose(keep.scores, [1 / 3, 1 / 3], atol=1e-12)


def test_argument_with_only_itself_as_premise_passes_nothing() -> None:
    # 0 <- {0} with self-reuse dropped leaves no edge: every unit keeps its ground relevance.
    res = argument_pagerank(3, [0], *csr([[0]]), ground=[1.0, 2.0, 1.0])
    np.testing.assert_allclose(res.scores, [0.25, 0.5, 0.25], atol=1e-12)


def test_empty_premise_argument_and_repeated_premises_change_nothing() -> None:
    base = argument_pagerank(4, [0, 1], *csr([[1, 2], [3]]), tol=1e-13)
    # An extra premise-less argument for conclusion 0 takes no share of p(0) ...
    with_empty = argument_pagerank(4, [0, 0, 1], *csr([[1, 2], [], [3]]), tol=1e-13)
    # ... and a premise listed twice counts once (P_i is a set).
    repeated = argument_pagerank(4, [0, 1], *csr([[1, 2, 1], [3, 3]]), tol=1e-13)
    np.testing.assert_allclose(with_empty.scores, base.scores, atol=1e-12)
    np.testing.assert_allclose(repeated.scores, base.scores, atol=1e-12)


def test_section_4_2_sum_is_one_without_dangling_units() -> None:
    # Every unit concludes an argument with premises, and unit 0 concludes two arguments.
    # Splitting p(0) between them keeps the literal formula's scores summing to 1 (Sec. 4.2);
    # passing p(0)/|P_i| along each of both arguments would hand on 2*p(0).
    res = argument_pagerank(
        3, [0, 0, 1, 2], *csr([[1], [2], [0], [0, 1]]), dangling="drop", tol=1e-14
    )
    assert res.scores.sum() == pytest.approx(1.0, abs=1e-12)


def test_ground_from_sources_by_hand() -> None:
    # |D| = 2 sources with p(d) = (0.8, 0.2); 4 units on sources (0, 0, 1, unknown).
    # p(d)*|D|/|A| = (0.8*2/4, 0.8*2/4, 0.2*2/4, 0.5*2/4) = (0.4, 0.4, 0.1, 0.25);
    # the unknown source gets the average page score 1/|D| = 0.5.
    ground = ground_from_sources([0, 0, 1, -1], [0.8, 0.2])
    np.testing.assert_allclose(ground, [0.4, 0.4, 0.1, 0.25], atol=1e-15)
    # Equal-sized sources: the ground sums to 1 as Sec. 4.1 intends.
    assert ground_from_sources([0, 0, 1, 1], [0.8, 0.2]).sum() == pytest.approx(1.0)
    # Without arguments, the PageRank is the ground relevance scaled to sum 1.
    res = argument_pagerank(4, [], *csr([]), ground=ground)
    np.testing.assert_allclose(res.scores, ground / ground.sum(), atol=1e-12)


# --- independent implementations -----------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("shared", ["split", "pool"])
def test_argument_pagerank_matches_networkx_on_weighted_unit_graph(
    seed: int, shared: Shared
) -> None:
    n_units, alpha = 40, 0.85
    conclusions, premises = random_arguments(seed, n_units, 70)
    ground = np.random.default_rng(seed + 100).uniform(0.1, 1.0, size=n_units)
    graph = networkx_unit_graph(n_units, conclusions, premises, shared)
    expected = nx.pagerank(
        graph, alpha=alpha, personalization=dict(enumerate(ground)), tol=1e-15, max_iter=10_000
    )
    res = argument_pagerank(
        n_units,
        conclusions,
        *csr(premises),
        alpha=alpha,
        ground=ground,
        shared=shared,
        tol=1e-13,
        max_iter=10_000,
    )
    np.testing.assert_allclose(res.scores, [expected[u] for u in range(n_units)], rtol=0, atol=1e-8)


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_literal_formula_matches_dense_solve_and_ground_rule_is_its_rescaling(seed: int) -> None:
    # Literal formula: y = alpha*M y + (1 - alpha)*g, i.e. y = (1 - alpha)(I - alpha*M)^-1 g, with
    # M written densely from the docstring's rule p(c)/(k_c * |P_i|).
    n_units, alpha = 30, 0.7
    conclusions, premises = random_arguments(seed, n_units, 45)
    ground = np.random.default_rng(seed).uniform(0.0, 1.0, size=n_units)
    g = ground / ground.sum()
    sets = [set(p) - {c} for c, p in zip(conclusions.tolist(), premises, strict=True)]
    k = np.zeros(n_units)
    for c, pset in zip(conclusions.tolist(), sets, strict=True):
        k[c] += bool(pset)
    dense = np.zeros((n_units, n_units))
    for c, pset in zip(conclusions.tolist(), sets, strict=True):
        for p in pset:
            dense[p, c] += 1.0 / (k[c] * len(pset))
    y = np.linalg.solve(np.eye(n_units) - alpha * dense, (1 - alpha) * g)
    literal = argument_pagerank(
        n_units,
        conclusions,
        *csr(premises),
        alpha=alpha,
        ground=ground,
        dangling="drop",
        tol=1e-14,
        max_iter=1000,
    )
    np.testing.assert_allclose(literal.scores, y, rtol=0, atol=1e-12)
    assert literal.scores.sum() < 1.0
    normalised = argument_pagerank(
        n_units, conclusions, *csr(premises), alpha=alpha, ground=ground, tol=1e-14, max_iter=1000
    )
    np.testing.assert_allclose(normalised.scores, y / y.sum(), rtol=0, atol=1e-12)
    assert normalised.scores.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", [10, 11, 12, 13])
def test_classic_pagerank_matches_networkx_digraph(seed: int) -> None:
    graph = nx.gnp_random_graph(60, 0.06, seed=seed, directed=True)
    graph.remove_edges_from(list(graph.out_edges([1, 2, 3])))  # dangling nodes
    graph.add_edge(5, 5)  # self-loop
    graph.add_edge(6, 6)
    n = graph.number_of_nodes()
    src, dst = (np.array(a, dtype=np.int64).reshape(-1) for a in zip(*graph.edges(), strict=True))
    expected = nx.pagerank(graph, alpha=0.85, tol=1e-15, max_iter=10_000)
    res = classic_pagerank(n, src, dst, tol=1e-13, max_iter=10_000)
    np.testing.assert_allclose(res.scores, [expected[u] for u in range(n)], rtol=0, atol=1e-8)
    assert res.scores.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("seed", [20, 21, 22])
def test_classic_pagerank_matches_networkx_weighted_multigraph(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, e = 50, 160
    src = rng.integers(0, n, size=e)
    dst = rng.integers(0, n, size=e)
    src[:3], dst[:3] = 7, 9  # parallel edges
    src[3], dst[3] = 8, 8  # self-loop
    src[4], dst[4] = 49, 0  # node 49's only out-edge has weight 0: dangling in both
    src[src == 48] = 47  # node 48 has no out-edge
    src[src == 49] = 46
    src[4] = 49
    weights = rng.uniform(0.1, 3.0, size=e)
    weights[4] = 0.0
    graph: nx.MultiDiGraph[int] = nx.MultiDiGraph()
    graph.add_nodes_from(range(n))
    for u, v, w in zip(src.tolist(), dst.tolist(), weights.tolist(), strict=True):
        graph.add_edge(u, v, weight=w)
    personalization = rng.uniform(0.0, 1.0, size=n)
    personalization[:5] = 0.0
    dangling = rng.uniform(0.0, 1.0, size=n)
    expected = nx.pagerank(
        graph,
        alpha=0.9,
        personalization=dict(enumerate(personalization)),
        dangling=dict(enumerate(dangling)),
        tol=1e-15,
        max_iter=10_000,
    )
    res = classic_pagerank(
        n,
        src,
        dst,
        weights,
        alpha=0.9,
        personalization=personalization,
        dangling=dangling,
        tol=1e-13,
        max_iter=10_000,
    )
    np.testing.assert_allclose(res.scores, [expected[u] for u in range(n)], rtol=0, atol=1e-8)


def test_classic_on_weighted_unit_edges_equals_argument_pagerank() -> None:
    conclusions, premises = random_arguments(30, 25, 40)
    edges = unit_edges(25, conclusions, *csr(premises))
    classic = classic_pagerank(25, edges.sources, edges.targets, edges.weights, tol=1e-13)
    adapted = argument_pagerank(25, conclusions, *csr(premises), tol=1e-13)
    np.testing.assert_allclose(classic.scores, adapted.scores, atol=1e-12)
    # Unweighted (one edge per premise slot) is the "pool" variant, not the default.
    pooled = classic_pagerank(25, edges.sources, edges.targets, tol=1e-13)
    assert not np.allclose(pooled.scores, adapted.scores, atol=1e-6)


# --- convergence ---------------------------------------------------------------------------------


def disjoint_copies(
    n_units: int, conclusions: np.ndarray, premises: list[list[int]], copies: int
) -> tuple[int, np.ndarray, list[list[int]]]:
    offsets = [k * n_units for k in range(copies)]
    all_conclusions = np.concatenate([conclusions + off for off in offsets])
    all_premises = [[u + off for u in p] for off in offsets for p in premises]
    return n_units * copies, all_conclusions, all_premises


def test_tolerance_does_not_depend_on_graph_size() -> None:
    # k disjoint copies: each copy holds 1/k of the mass, so the L1 change per iteration is the
    # same as for one copy and the absolute tolerance stops at the same iteration.
    n_units, conclusions, premises = 50, *random_arguments(40, 50, 80)
    one = argument_pagerank(n_units, conclusions, *csr(premises), tol=1e-9)
    for copies in (10, 200):
        n_all, conc_all, prem_all = disjoint_copies(n_units, conclusions, premises, copies)
        many = argument_pagerank(n_all, conc_all, *csr(prem_all), tol=1e-9)
        assert many.iterations == one.iterations
        np.testing.assert_allclose(
            many.scores, np.tile(one.scores, copies) / copies, rtol=1e-9, atol=0
        )


def test_warm_start_converges_in_fewer_iterations() -> None:
    n_units, (conclusions, premises) = 60, random_arguments(50, 60, 100)
    cold = argument_pagerank(n_units, conclusions, *csr(premises))
    # Restarting from the fixed point: one step changes x by at most alpha * last residual < tol.
    again = argument_pagerank(n_units, conclusions, *csr(premises), start=cold.scores)
    assert again.iterations == 1
    # After adding two arguments, the old scores are a better start than the uniform vector.
    conclusions2 = np.concatenate([conclusions, [4, 9]])
    premises2 = [*premises, [10, 11], [4]]
    cold2 = argument_pagerank(n_units, conclusions2, *csr(premises2))
    start = cold.scores.copy()
    warm2 = argument_pagerank(n_units, conclusions2, *csr(premises2), start=start)
    np.testing.assert_array_equal(start, cold.scores)  # the caller's vector is left alone
    assert warm2.iterations < cold2.iterations
    np.testing.assert_allclose(warm2.scores, cold2.scores, rtol=0, atol=1e-9)


def test_convergence_error_carries_iterations_and_residual() -> None:
    # alpha = 1 on a 2-cycle started at (1, 0) oscillates: every step moves all mass, residual 2.
    with pytest.raises(ConvergenceError) as info:
        argument_pagerank(2, [0, 1], *csr([[1], [0]]), alpha=1.0, start=[1.0, 0.0], max_iter=7)
    assert info.value.iterations == 7
    assert info.value.residual == pytest.approx(2.0)
    assert isinstance(info.value, ArgKBError)
    assert "7 iterations" in str(info.value)
    copy = pickle.loads(pickle.dumps(info.value))
    assert (copy.iterations, copy.residual) == (7, info.value.residual)


def test_convergence_error_when_max_iter_too_small() -> None:
    conclusions, premises = random_arguments(60, 40, 60)
    needed = argument_pagerank(40, conclusions, *csr(premises), tol=1e-12).iterations
    with pytest.raises(ConvergenceError) as info:
        argument_pagerank(40, conclusions, *csr(premises), tol=1e-12, max_iter=needed - 1)
    assert info.value.iterations == needed - 1
    assert info.value.residual >= 1e-12


def test_build_then_iterate_equals_one_call() -> None:
    conclusions, premises = random_arguments(70, 30, 50)
    transition = build_argument_transition(30, conclusions, *csr(premises))
    assert transition.matrix.shape == (30, 30)
    # Columns of non-dangling units sum to 1; dangling units leak everything.
    col_sums = np.asarray(transition.matrix.sum(axis=0)).ravel()
    np.testing.assert_allclose(col_sums + transition.leak, 1.0, atol=1e-12)
    stepwise = power_iteration(transition, alpha=0.85)
    direct = argument_pagerank(30, conclusions, *csr(premises))
    np.testing.assert_array_equal(stepwise.scores, direct.scores)
    assert stepwise.iterations == direct.iterations


# --- inputs --------------------------------------------------------------------------------------


def test_premise_csr_groups_sorts_and_deduplicates() -> None:
    indptr, units = premise_csr(4, [2, 0, 2, 0, 2], [5, 3, 1, 3, 5])
    np.testing.assert_array_equal(indptr, [0, 1, 1, 3, 3])
    np.testing.assert_array_equal(units, [3, 1, 5])


def test_empty_graph() -> None:
    res = argument_pagerank(0, [], [0], [])
    assert res.scores.shape == (0,)
    assert res.iterations == 0


@pytest.mark.parametrize(
    ("conclusions", "indptr", "units", "kwargs"),
    [
        ([0, 3], [0, 1, 2], [1, 2], {}),  # conclusion out of range
        ([0, 1], [0, 1, 2], [1, 5], {}),  # premise out of range
        ([0, 1], [0, 2, 1], [1, 2], {}),  # decreasing indptr
        ([0, 1], [0, 1], [1], {}),  # indptr too short
        ([0, 1], [0, 1, 2], [1, 2], {"alpha": 1.5}),
        ([0, 1], [0, 1, 2], [1, 2], {"ground": [0.0, 0.0, 0.0]}),
        ([0, 1], [0, 1, 2], [1, 2], {"start": [1.0, -1.0, 1.0]}),
        ([0, 1], [0, 1, 2], [1, 2], {"dangling": "uniform"}),
        ([0, 1], [0, 1, 2], [1, 2], {"max_iter": 0}),
    ],
)
def test_bad_input_raises_typed_error(
    conclusions: list[int], indptr: list[int], units: list[int], kwargs: dict[str, object]
) -> None:
    with pytest.raises(GraphInputError) as info:
        argument_pagerank(3, conclusions, indptr, units, **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ArgKBError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("self_reuse", ["drop", "keep"])
@pytest.mark.parametrize("shared", ["split", "pool"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_direct_build_equals_edge_list_build(
    seed: int, shared: Shared, self_reuse: SelfReuse
) -> None:
    # build_argument_transition builds CSR straight from the premise lists (counting sort,
    # parallel entries kept); it must equal the transition of the sorted, deduplicated edge
    # list, including self-reuse, repeated premises and arguments without premises.
    conclusions, premises = random_arguments(80 + seed, 40, 120)
    premises[2] = [7, 5, 7, 5]  # repeats that are not adjacent in the list
    premises[3] = [int(conclusions[3])]  # only itself as premise
    edges = unit_edges(40, conclusions, *csr(premises), self_reuse=self_reuse, shared=shared)
    expected = build_transition(40, edges.sources, edges.targets, edges.weights)
    direct = build_argument_transition(
        40,
        conclusions,
        *csr(premises),
        self_reuse=self_reuse,
        shared=shared,
    )
    np.testing.assert_allclose(
        direct.matrix.toarray(), expected.matrix.toarray(), rtol=1e-15, atol=0
    )
    np.testing.assert_array_equal(direct.leak, expected.leak)
    assert direct.matrix.indices.dtype == np.int32
