"""The engine: placeholders, the one resolver, formatting, the drift guard. It knows no chapter."""
