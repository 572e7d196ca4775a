"""The ablation units: one module per ablation, each calling
:func:`mrclens.perturbations.registry.register` once. Modules here are discovered by the
registry; a module whose name starts with ``_`` is a shared helper, not an ablation."""
