"""``deploy/grafana-dashboard.json``: Grafana can import it, and every panel asks for figures
the bot exports (a renamed metric would leave a panel empty without a word).
``tests/test_metrics_prometheus.py`` runs each panel's query against a real Prometheus."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from bot.metrics import Metrics

DASHBOARD = Path(__file__).resolve().parents[1] / "deploy" / "grafana-dashboard.json"
#: The series Prometheus itself adds for each target.
PROMETHEUS_OWN = {"up"}
#: What each kind of metric is exported as.
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"),
            "gauge": ("",)}


def exported() -> set[str]:
    """Every series name the bot's ``/metrics`` may show."""
    return {family.name + suffix for family in Metrics().registry.collect()
            for suffix in SUFFIXES[family.type]}


def panel_queries() -> list[tuple[str, str]]:
    """(panel title, PromQL) for every query of every panel."""
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    return [(panel["title"], target["expr"]) for panel in dashboard["panels"]
            for target in panel["targets"]]


def names_in(expr: str) -> set[str]:
    """The series a PromQL expression reads (the bot's start with ``filicau_``)."""
    return set(re.findall(r"\b(filicau_\w+|up)\b(?=\s*[{\[)]|\s*$)", expr))


def test_the_dashboard_is_json_grafana_imports() -> None:
    dashboard: dict[str, Any] = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    assert dashboard["title"] and dashboard["uid"]
    panels = dashboard["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    for panel in panels:
        assert panel["targets"], panel["title"]
        assert panel["datasource"]["uid"] == "${datasource}"  # the importer picks it
        assert {"h", "w", "x", "y"} <= panel["gridPos"].keys()
    variables = {v["name"] for v in dashboard["templating"]["list"]}
    assert {"datasource", "shard"} <= variables


def test_every_panel_reads_figures_the_bot_exports() -> None:
    known = exported() | PROMETHEUS_OWN
    read: set[str] = set()
    for title, expr in panel_queries():
        names = names_in(expr)
        assert names, (title, expr)
        assert names <= known, (title, names - known)
        read |= names
    # The operator's figures of issue 47, each on some panel.
    for figure in ("filicau_tables_open", "filicau_hands_in_play",
                   "filicau_interaction_answer_seconds_bucket", "filicau_interactions_total",
                   "filicau_discord_requests_total", "filicau_discord_rate_limited_total",
                   "filicau_discord_global_limited_requests_total",
                   "filicau_gateway_reconnects_total", "filicau_store_query_seconds_bucket",
                   "filicau_ai_decision_seconds_bucket", "filicau_ai_queue",
                   "filicau_web_sockets", "filicau_errors_total"):
        assert figure in read, figure


def test_a_misspelt_metric_is_caught() -> None:
    """The check above can fail: a name the bot does not export is not among the known."""
    assert "filicau_table_open" not in exported()
    assert names_in("sum(rate(filicau_table_open{x=\"1\"}[5m]))") == {"filicau_table_open"}
