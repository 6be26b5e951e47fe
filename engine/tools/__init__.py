"""The engine's tools, beside its core: the terminal game, duplicate arenas between computer
levels, speed benchmarks and decision timing (``python -m engine play|arena|bench|ai-timing|
analysis-timing``).

They use the core as any program would (rules, hands, views, players); the core never imports
them (an import-linter contract in ``pyproject.toml`` keeps it so).
"""
