"""The rule primitives (Ludii's ludemes), one module a ruleset slot; :mod:`.registry` says
what a primitive is, :mod:`.builtin` lists the built-in ones, :mod:`.loading` builds a
ruleset's primitives into compiled rules."""
