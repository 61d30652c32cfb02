"""This folder holds the files of a chapter to add to a copy of the book (tests/site/test_new_chapter.py), not
tests of this book: its test file is collected only in that copy."""

collect_ignore = ["test_sampling.py"]
