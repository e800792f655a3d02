"""Magus (Earthdawn-derived): steps, open-ended action dice, success levels and their odds.

Pure building blocks; not yet a registered ruleset.
"""
