"""k8s_lint_ops.py: the operations half of tests/lint/k8s_lint.py (issue 15): what the
autoscalers, the monitoring objects, the matchmaker's leader Service, the gateway drain
and TLS must agree on, checked without a cluster.

- Every metric an alert rule, the Grafana dashboard or prometheus-adapter names is one
  the C sources export (a misspelt metric makes an alert that never fires).
- Each HPA's pods metric is one prometheus-adapter-values.yaml serves; gateways and
  workers each have an HPA and leave their replica count to it.
- Gateways and workers spread over nodes (topologySpreadConstraints on their own pods).
- A Service may select a label set at run time (deckhand.io/matchmaker-role) only on
  pods that run the leader-label container setting it from deckhand_matchmaker_lease_held.
- The gateway's drain (DECKHAND_GATEWAY_DRAIN_MS) ends inside its grace period.
- An Ingress has TLS and leads only to the gateways' WebSocket port.
- With promtool: the rules pass `promtool check rules` and the unit tests in
  prometheus_rules_test.yaml; the plain scrape configuration passes `promtool check
  config` (its Kubernetes service discovery swapped for a static target: Debian's
  promtool is built without it).
"""
import json
import os
import re
import shutil
import subprocess
import tempfile

import yaml

RUNTIME_LABELS = {"deckhand.io/matchmaker-role"}  # set by the leader-label container
LABELER = "leader-label"
SCALED = {"gateway": "deckhand_gateway_connections", "worker": "deckhand_worker_active_matches"}


def c_metric_names(root, c_dirs):
    """Every "deckhand_..." or "process_..." string literal in the C sources."""
    names = set()
    for d in c_dirs:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for fn in files:
                if fn.endswith((".c", ".h")):
                    with open(os.path.join(dirpath, fn), encoding="utf-8") as f:
                        names.update(re.findall(r'"((?:deckhand|process)_[a-z0-9_]+)"', f.read()))
    return names


def metric_refs(expr):
    """The deckhand_/process_ metric names a PromQL expression uses, suffixes stripped."""
    out = set()
    for m in re.findall(r"\b((?:deckhand|process)_[a-z0-9_]+)", expr):
        for suffix in ("_bucket", "_sum", "_count"):
            if m.endswith(suffix) and not m.endswith("_total" + suffix):
                m = m[: -len(suffix)]
                break
        out.add(m)
    return out


def check_metric_names(lint, where, exprs, known):
    for e in exprs:
        for m in sorted(metric_refs(e)):
            if m not in known:
                lint.err(where, f"metric {m} is exported by no deckhand process")


def adapter_metrics(doc):
    served = set()
    for r in ((doc or {}).get("rules") or {}).get("custom") or []:
        served.add(((r.get("name") or {}).get("as")) or "")
    return served


def check_objects_ops(lint, objs, known, adapter):
    """objs: (where, object) pairs. adapter: metrics prometheus-adapter serves, or None."""
    pods = {}
    for where, o in objs:
        if o.get("kind") == "Deployment":
            comp = ((o.get("spec") or {}).get("template", {}).get("metadata", {})
                    .get("labels", {}).get("app.kubernetes.io/component"))
            pods[comp] = (where, o)
    hpas = {((o.get("spec") or {}).get("scaleTargetRef") or {}).get("name"): (w, o)
            for w, o in objs if o.get("kind") == "HorizontalPodAutoscaler"}
    for comp, metric in SCALED.items():
        if comp not in pods:
            continue
        where, dep = pods[comp]
        name = dep["metadata"]["name"]
        spec = dep.get("spec") or {}
        tpl = spec.get("template") or {}
        at = f"{where}: Deployment {name}"
        if name not in hpas:
            lint.err(at, "no HorizontalPodAutoscaler scales it")
        else:
            hw, hpa = hpas[name]
            names = [((m.get("pods") or {}).get("metric") or {}).get("name")
                     for m in hpa["spec"].get("metrics") or [] if m.get("type") == "Pods"]
            if metric not in names:
                lint.err(f"{hw}: HPA {hpa['metadata']['name']}", f"does not scale on {metric}")
            for n in names:
                if n not in known:
                    lint.err(f"{hw}: HPA {hpa['metadata']['name']}", f"pods metric {n} is "
                             "exported by no deckhand process")
                if adapter is not None and n not in adapter:
                    lint.err(f"{hw}: HPA {hpa['metadata']['name']}", f"pods metric {n} is not "
                             "served by k8s/monitoring/prometheus-adapter-values.yaml")
        if "replicas" in spec:
            lint.err(at, "sets replicas, which belong to its HPA (each apply would reset them)")
        labels = (tpl.get("metadata") or {}).get("labels") or {}
        spread = [c for c in (tpl.get("spec") or {}).get("topologySpreadConstraints") or []
                  if c.get("topologyKey") == "kubernetes.io/hostname"]
        if not spread:
            lint.err(at, "no topologySpreadConstraints over kubernetes.io/hostname")
        for c in spread:
            ml = (c.get("labelSelector") or {}).get("matchLabels") or {}
            if not ml or any(labels.get(k) != v for k, v in ml.items()):
                lint.err(at, "its topology spread counts other pods than its own")
    if "gateway" in pods:
        where, dep = pods["gateway"]
        pspec = dep["spec"]["template"]["spec"]
        grace = pspec.get("terminationGracePeriodSeconds", 30)
        for c in pspec.get("containers") or []:
            for e in c.get("env") or []:
                if e.get("name") == "DECKHAND_GATEWAY_DRAIN_MS":
                    if int(e.get("value", 0)) >= grace * 1000:
                        lint.err(f"{where}: gateway", f"DECKHAND_GATEWAY_DRAIN_MS {e['value']} "
                                 f"does not end inside terminationGracePeriodSeconds {grace}")

    for where, o in objs:
        kind, name = o.get("kind"), (o.get("metadata") or {}).get("name")
        at = f"{where}: {kind} {name}"
        spec = o.get("spec") or {}
        if kind == "Service":
            sel = spec.get("selector") or {}
            runtime = [k for k in sel if k in RUNTIME_LABELS]
            if runtime:
                base = {k: v for k, v in sel.items() if k not in RUNTIME_LABELS}
                targets = [d for _, d in pods.values()
                           if all(((d["spec"]["template"].get("metadata") or {}).get("labels")
                                   or {}).get(k) == v for k, v in base.items())]
                for d in targets:
                    cs = {c.get("name"): c for c in d["spec"]["template"]["spec"]["containers"]}
                    lab = cs.get(LABELER)
                    text = json.dumps(lab or {})
                    if not lab or runtime[0] not in text or \
                            "deckhand_matchmaker_lease_held" not in text:
                        lint.err(at, f"selects {runtime[0]}, which no {LABELER} container of "
                                 "its pods sets from deckhand_matchmaker_lease_held")
                if not targets:
                    lint.err(at, "its selector matches no pod template")
        if kind == "PrometheusRule":
            exprs = [str(r.get("expr", "")) for g in spec.get("groups") or []
                     for r in g.get("rules") or []]
            check_metric_names(lint, at, exprs, known)
            for g in spec.get("groups") or []:
                for r in g.get("rules") or []:
                    if "alert" in r and not (r.get("labels") or {}).get("severity"):
                        lint.err(at, f"alert {r['alert']} has no severity")
        if kind == "Ingress":
            if not spec.get("tls"):
                lint.err(at, "no tls: players' WebSockets would cross the internet in clear")
            for rule in spec.get("rules") or []:
                for p in (rule.get("http") or {}).get("paths") or []:
                    svc = (p.get("backend") or {}).get("service") or {}
                    port = svc.get("port") or {}
                    if svc.get("name") != "deckhand-gateway" or \
                            (port.get("name"), port.get("number")) not in (("ws", None), (None, 7001)):
                        lint.err(at, "leads elsewhere than the gateways' WebSocket port")


def lint_monitoring_files(lint, root, known):
    """The files of k8s/monitoring that are not Kubernetes objects."""
    mon = os.path.join(root, "k8s", "monitoring")
    adapter = None
    p = os.path.join(mon, "prometheus-adapter-values.yaml")
    if os.path.isfile(p):
        with open(p, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        adapter = adapter_metrics(doc)
        check_metric_names(lint, p, [r.get("seriesQuery", "") for r in
                                     (doc.get("rules") or {}).get("custom") or []], known)
    for dirpath, _, files in os.walk(mon):
        for fn in files:
            if fn.endswith(".json"):
                path = os.path.join(dirpath, fn)
                try:
                    with open(path, encoding="utf-8") as f:
                        dash = json.load(f)
                except ValueError as e:
                    lint.err(path, f"invalid JSON: {e}")
                    continue
                exprs = [t.get("expr", "") for pnl in dash.get("panels") or []
                         for t in pnl.get("targets") or []]
                if not exprs:
                    lint.err(path, "a dashboard without a query")
                check_metric_names(lint, path, exprs, known)
    return adapter


def promtool_checks(lint, root):
    """promtool on the rules (check + unit tests) and the scrape configuration."""
    promtool = shutil.which("promtool")
    mon = os.path.join(root, "k8s", "monitoring")
    if not promtool or not os.path.isdir(mon):
        return False
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(mon, "prometheus-rules.yaml"), encoding="utf-8") as f:
            spec = yaml.safe_load(f)["spec"]
        rules = os.path.join(tmp, "rules.yaml")
        with open(rules, "w", encoding="utf-8") as f:
            yaml.safe_dump(spec, f)
        with open(os.path.join(root, "tests", "lint", "prometheus_rules_test.yaml"),
                  encoding="utf-8") as f:
            test = f.read().replace("  - RULES\n", f"  - {rules}\n")
        tpath = os.path.join(tmp, "rules_test.yaml")
        with open(tpath, "w", encoding="utf-8") as f:
            f.write(test)
        with open(os.path.join(mon, "prometheus-scrape.yaml"), encoding="utf-8") as f:
            scrape = yaml.safe_load(f)
        for sc in scrape.get("scrape_configs") or []:
            if sc.pop("kubernetes_sd_configs", None) is not None:
                sc["static_configs"] = [{"targets": ["127.0.0.1:7010"]}]
        cpath = os.path.join(tmp, "prometheus.yml")
        with open(cpath, "w", encoding="utf-8") as f:
            yaml.safe_dump(dict(scrape, **{"global": {}}), f)
        for what, args in (("rules", ["check", "rules", rules]),
                           ("rule unit tests", ["test", "rules", tpath]),
                           ("scrape configuration", ["check", "config", cpath])):
            r = subprocess.run([promtool] + args, capture_output=True, text=True)
            if r.returncode != 0:
                lint.err(f"promtool {what}", (r.stdout + r.stderr).strip())
    return True


# ---- the checks' own test --------------------------------------------------------------


def broken_ops_cases(good_objs):
    """(what is broken, objects): each must give at least one error."""
    def edit(fn):
        objs = [(w, json.loads(json.dumps(o))) for w, o in good_objs]
        fn({o.get("kind") + "/" + o["metadata"]["name"]: o for _, o in objs})
        return objs

    def drop_container(o, name):
        cs = o["spec"]["template"]["spec"]["containers"]
        o["spec"]["template"]["spec"]["containers"] = [c for c in cs if c.get("name") != name]

    return [
        ("HPA on a metric the adapter does not serve",
         edit(lambda d: d["HorizontalPodAutoscaler/w"]["spec"]["metrics"][0]["pods"]["metric"]
              .update(name="deckhand_worker_matches"))),
        ("worker Deployment with replicas", edit(lambda d: d["Deployment/w"]["spec"]
                                                 .update(replicas=3))),
        ("no spread", edit(lambda d: d["Deployment/w"]["spec"]["template"]["spec"]
                           .pop("topologySpreadConstraints"))),
        ("misspelt metric in a rule",
         edit(lambda d: d["PrometheusRule/r"]["spec"]["groups"][0]["rules"][0]
              .update(expr="sum(deckhand_matchmaker_lease_hold) < 1"))),
        ("alert without severity",
         edit(lambda d: d["PrometheusRule/r"]["spec"]["groups"][0]["rules"][0].pop("labels"))),
        ("leader Service without the labeler", edit(lambda d: drop_container(d["Deployment/m"],
                                                                             LABELER))),
        ("drain longer than the grace period",
         edit(lambda d: d["Deployment/g"]["spec"]["template"]["spec"]
              .update(terminationGracePeriodSeconds=10))),
        ("Ingress without TLS", edit(lambda d: d["Ingress/i"]["spec"].pop("tls"))),
        ("Ingress to the HTTP port",
         edit(lambda d: d["Ingress/i"]["spec"]["rules"][0]["http"]["paths"][0]["backend"]
              ["service"].update(port={"number": 7010}))),
    ]


GOOD_OPS = yaml.safe_load_all("""
kind: Deployment
metadata: {name: w}
spec:
  template:
    metadata: {labels: {app.kubernetes.io/component: worker}}
    spec:
      topologySpreadConstraints:
        - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app.kubernetes.io/component: worker}}}
      containers: [{name: worker}]
---
kind: HorizontalPodAutoscaler
metadata: {name: w}
spec:
  scaleTargetRef: {kind: Deployment, name: w}
  metrics: [{type: Pods, pods: {metric: {name: deckhand_worker_active_matches}}}]
---
kind: Deployment
metadata: {name: g}
spec:
  template:
    metadata: {labels: {app.kubernetes.io/component: gateway}}
    spec:
      terminationGracePeriodSeconds: 30
      topologySpreadConstraints:
        - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app.kubernetes.io/component: gateway}}}
      containers: [{name: gateway, env: [{name: DECKHAND_GATEWAY_DRAIN_MS, value: "20000"}]}]
---
kind: HorizontalPodAutoscaler
metadata: {name: g}
spec:
  scaleTargetRef: {kind: Deployment, name: g}
  metrics: [{type: Pods, pods: {metric: {name: deckhand_gateway_connections}}}]
---
kind: Deployment
metadata: {name: m}
spec:
  template:
    metadata: {labels: {app.kubernetes.io/component: matchmaker}}
    spec:
      containers:
        - {name: matchmaker}
        - {name: leader-label, args: ["deckhand_matchmaker_lease_held deckhand.io/matchmaker-role"]}
---
kind: Service
metadata: {name: s}
spec:
  selector: {app.kubernetes.io/component: matchmaker, deckhand.io/matchmaker-role: leader}
---
kind: PrometheusRule
metadata: {name: r}
spec:
  groups:
    - name: g
      rules:
        - {alert: A, expr: "sum(deckhand_matchmaker_lease_held) < 1", labels: {severity: critical}}
---
kind: Ingress
metadata: {name: i}
spec:
  tls: [{hosts: [x]}]
  rules:
    - http:
        paths: [{path: /ws, backend: {service: {name: deckhand-gateway, port: {name: ws}}}}]
""")
GOOD_OPS = [("self-test", o) for o in GOOD_OPS]
ADAPTER_SELF = {"deckhand_worker_active_matches", "deckhand_gateway_connections"}


def self_test_ops(lint_cls, known):
    failures = []
    lint = lint_cls()
    check_objects_ops(lint, GOOD_OPS, known, ADAPTER_SELF)
    if lint.errors:
        failures.append(f"the good operations manifests fail: {lint.errors}")
    for what, objs in broken_ops_cases(GOOD_OPS):
        lint = lint_cls()
        check_objects_ops(lint, objs, known, ADAPTER_SELF)
        if not lint.errors:
            failures.append(f"not caught: {what}")
    return failures
