"""Mutation analysis of suites (`masfuzz mutate`): workflow mutants and whether a suite kills them.

`masfuzz.spec.mutants` enumerates the mutants of a spec; the adapters apply them to the live
system at run time (`Adapter.mutation_operators`); `analysis` runs a suite against each mutant
and scores it.
"""
