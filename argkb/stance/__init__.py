"""Stance of premises towards their conclusions, and of retrieved claims towards the query.

* :mod:`argkb.stance.model`: P(pro) of a premise towards its conclusion (``argkb stance``);
* :mod:`argkb.stance.alignment`: P(q aligned c) for Eq. 2-4 of Dumani et al. (ECIR 2020);
* :mod:`argkb.stance.store`: writing predictions on ``PREMISE_OF`` edges with their provenance;
* :mod:`argkb.stance.evaluate`: topic folds and held-out fitting, which training and evaluation
  share (``argkb eval stance`` itself is :mod:`argkb.eval.stance`).
"""
