"""Settings every test shares.

Hypothesis: no per-example deadline and no health check on slow generation. CI runs the
suite in parallel on a busy 2-core machine, where an example's time says nothing about the
code; speed is measured by benchmarks, never asserted by a test.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("contack", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("contack")
