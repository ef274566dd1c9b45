"""Statistics for simharness runs (polars + scipy).

``intervals``: proportion, bootstrap and cluster-robust CIs; ``hypotheses``: tests, effect sizes and
multiplicity control; ``paired``: comparisons on shared deals; ``sequential``: GSPRT and stopping-
aware estimates (``looks``: the records its tests leave in a run's manifest); ``power``: sample-size
planning; ``balance``: the house-rule balance scorecard.
"""
