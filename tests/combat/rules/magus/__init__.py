"""Tests of the Magus building blocks: steps, open-ended dice, success levels, odds."""
