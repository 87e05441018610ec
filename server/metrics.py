"""Prometheus metrics at /metrics (prometheus-client): calls, latency, errors, bundles, memory.

Counters are per application (one registry each), so tests that build several apps in one
process do not mix their figures. Bundle figures are read from the state at scrape time.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Iterable

from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST

if TYPE_CHECKING:
    from .state import ServerState

CONTENT_TYPE = CONTENT_TYPE_LATEST
# Tool calls answer in 0.1–20 ms; compare_configurations of two SSL-sized ones in up to ~2 s.
_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)


class Metrics:
    def __init__(self, states: "Iterable[ServerState]") -> None:
        self.registry = CollectorRegistry()
        self.calls = Counter("v8atlas_tool_calls", "Tool calls by tool, transport and outcome",
                             ("tool", "transport", "outcome"), registry=self.registry)
        self.errors = Counter("v8atlas_tool_errors", "Tool calls answered with an error, by code",
                              ("tool", "transport", "code"), registry=self.registry)
        self.latency = Histogram("v8atlas_tool_seconds", "Time to answer a tool call",
                                 ("tool", "transport"), buckets=_BUCKETS, registry=self.registry)
        ProcessCollector(registry=self.registry)          # process_resident_memory_bytes & co
        self.registry.register(_BundleCollector(list(states)))

    def observe(self, tool: str, transport: str, outcome: str, code: str | None, seconds: float) -> None:
        self.calls.labels(tool, transport, outcome).inc()
        self.latency.labels(tool, transport).observe(seconds)
        if code:
            self.errors.labels(tool, transport, code).inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)


class _BundleCollector:
    """Per configuration: the bundle serving it, its hash and age; per source: state, refusals."""

    def __init__(self, states: "list[ServerState]") -> None:
        self.states = states

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterable[Metric]:
        info = GaugeMetricFamily("v8atlas_bundle_info", "The bundle serving each configuration (value 1)",
                                 labels=("source", "configuration", "bundle", "content_hash"))
        age = GaugeMetricFamily("v8atlas_bundle_age_seconds", "Age of the bundle serving each configuration",
                                labels=("source", "configuration"))
        state = GaugeMetricFamily("v8atlas_source_state", "Readiness of each bundle source (1 = in this state)",
                                  labels=("source", "state"))
        refused = CounterMetricFamily("v8atlas_bundles_refused", "Bundles refused (failed checks, changed "
                                      "on disk, bad pointer or origin)", labels=("source",))
        swaps = CounterMetricFamily("v8atlas_bundle_swaps", "Bundles switched to", labels=("source",))
        origin = CounterMetricFamily("v8atlas_origin_failures", "Failed polls or pulls of the origin",
                                     labels=("source",))
        for st in self.states:
            label = st.label
            snap = st.current
            for s in ("starting", "ready", "degraded", "unavailable"):
                state.add_metric([label, s], 1.0 if st.readiness == s else 0.0)
            refused.add_metric([label], float(st.refusals))
            swaps.add_metric([label], float(st.swaps))
            if st.origin is not None:
                origin.add_metric([label], float(st.origin.failures))
            if snap is None:
                continue
            created = snap.age_seconds()
            for c in snap.configs or []:
                info.add_metric([label, c.name, snap.id, snap.content_hash], 1.0)
                if created is not None:
                    age.add_metric([label, c.name], created)
        yield from (info, age, state, refused, swaps, origin)


def monotonic() -> float:
    return time.perf_counter()
