"""Pure rules engines for the combat table.

No Django, no I/O, no clock, no global random: dice come from an injected RNG and every roll
comes back as data. The encounter layer reaches a ruleset through
`combat.rules.registry.get_ruleset(key)` and the `Ruleset` protocol (with its capabilities) in
`combat.rules.base`, never by naming Eleora, Magus or d100. This package imports nothing, so
importing one of its modules loads no ruleset it does not ask for.
"""
