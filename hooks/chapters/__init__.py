"""Each chapter's presentation: only what a chapter draws (formula layouts, tables, plots, widgets).

A module here offers FORMULAS, BLOCKS and WIDGETS (hooks/engine/contract.py says what each holds); hooks/checks.py
finds every module of this folder and hands their layouts to the engine, so a new one needs no other edit.
"""
