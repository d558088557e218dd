"""Round-robin tournaments of bots on duplicate deals: config, schedule, play, store, runner, report.

``contack tournament run CONFIG`` plays them (:mod:`tournaments.runner`), ``contack
tournament report DIR`` sums them up (:mod:`tournaments.report`).
"""
