"""Game-specific Python APIs (hand scoring, shanten) and game-specific summary metrics."""
