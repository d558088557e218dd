"""Replaying records as pictures and text: a timeline of snapshots, SVG, an HTML page, a terminal stepper."""

from contack_core.replay.timeline import ReplayError, Step, Timeline, build_timeline

__all__ = ["ReplayError", "Step", "Timeline", "build_timeline"]
