"""MkDocs hooks of the book: the engine that turns paths into Markdown, what each chapter draws, and the site layer."""
