"""Serving the pages well: KaTeX at build time, fonts, stylesheets, tables, print, metadata."""
