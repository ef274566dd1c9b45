"""Run summaries and reports: terminal tables, JSON and a self-contained HTML page."""
