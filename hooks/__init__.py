"""MkDocs hooks of the book: thin adapters from chapter placeholders to grpo_examples."""
