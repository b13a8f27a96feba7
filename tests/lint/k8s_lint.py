#!/usr/bin/env python3
"""k8s_lint.py: the invariants of k8s/ that no cluster is needed to check.

This machine has no Kubernetes cluster and no image registry, so nothing here proves the
manifests run. What it proves is that they say what docs/OPERATIONS.md and the C sources
expect: every YAML parses; every file a kustomization names exists; every deckhand
container is probed on the HTTP port it is told to serve (liveness /healthz, readiness
/readyz); every container runs non-root, read-only, without privilege escalation or
capabilities, with requests and limits; the gateway's LoadBalancer exposes the client
ports only; every deckhand container and kustomization names the same image; no Secret or
example file in git holds a real key; every DECKHAND_* variable set exists in the C
sources; every $(VAR) is defined before use; every selector selects something.

  k8s_lint.py [ROOT]            lint ROOT/k8s (ROOT: the repository, default ../..)
  k8s_lint.py --render [ROOT]   also render each overlay with `kubectl kustomize` (offline)
                                and lint what comes out

Before linting the tree it lints broken manifests made in memory and fails unless each
is caught, so a check that silently stopped working fails the test too.
"""
import copy
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml  # python3-yaml (Debian); scripts/lib/setup.sh installs it

from k8s_lint_ops import (RUNTIME_LABELS, c_metric_names, check_objects_ops,
                          lint_monitoring_files, promtool_checks, self_test_ops)

IMAGE = "deckhand"  # the image every deckhand container and kustomization names
CLIENT_PORTS = {7000, 7001}  # the gateway's TCP and WebSocket ports, the only public ones
PLACEHOLDER = re.compile(r"^(|change-?me|replace-?me|<[^>]*>)$", re.IGNORECASE)
WORKLOADS = ("Deployment", "StatefulSet", "DaemonSet")
C_DIRS = ("common", "gateway", "matchmaker", "worker", "client")


class Lint:
    def __init__(self):
        self.errors = []

    def err(self, where, msg):
        self.errors.append(f"{where}: {msg}")


def load_yaml_docs(lint, path):
    try:
        with open(path, encoding="utf-8") as f:
            return [d for d in yaml.safe_load_all(f) if d is not None]
    except yaml.YAMLError as e:
        lint.err(path, f"invalid YAML: {e}")
        return []


def c_env_names(root):
    """Every "DECKHAND_..." string literal in the C sources."""
    names = set()
    for d in C_DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for fn in files:
                if fn.endswith((".c", ".h")):
                    with open(os.path.join(dirpath, fn), encoding="utf-8") as f:
                        names.update(re.findall(r'"(DECKHAND_[A-Z0-9_]+)"', f.read()))
    return names


def dockerfile_uid(lint, path):
    """The numeric uid of the Dockerfile's last USER; Kubernetes must run as the same."""
    uid = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*USER\s+(\S+)", line)
            if m:
                uid = m.group(1).split(":")[0]
    if uid is None or not uid.isdigit() or int(uid) == 0:
        lint.err(path, f"the final USER must be a numeric non-root uid, not {uid!r}")
        return None
    return int(uid)


# ---- kustomizations --------------------------------------------------------------------


def ignored_by_git(k8s_dir, path):
    gi = os.path.join(k8s_dir, ".gitignore")
    if not os.path.exists(gi):
        return False
    rel = os.path.relpath(path, k8s_dir)
    with open(gi, encoding="utf-8") as f:
        pats = [p.strip().lstrip("/") for p in f if p.strip() and not p.startswith("#")]
    return any(fnmatch.fnmatch(rel, p) for p in pats)


def check_env_file_placeholders(lint, path):
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                key, val = line.split("=", 1)
                if not PLACEHOLDER.match(val.strip()):
                    lint.err(f"{path}:{n}", f"{key} holds a value, not a placeholder: "
                             "real secrets stay out of git")


def check_kustomization(lint, path, doc, k8s_dir):
    d = os.path.dirname(path)
    for r in doc.get("resources") or []:
        p = os.path.join(d, r)
        if os.path.isdir(p):
            if not any(os.path.exists(os.path.join(p, k)) for k in
                       ("kustomization.yaml", "kustomization.yml", "Kustomization")):
                lint.err(path, f"resource {r} is a folder without a kustomization")
        elif not os.path.isfile(p):
            lint.err(path, f"resource {r} does not exist")
    for patch in doc.get("patches") or []:
        if "path" in patch and not os.path.isfile(os.path.join(d, patch["path"])):
            lint.err(path, f"patch {patch['path']} does not exist")
    for gen in doc.get("secretGenerator") or []:
        for lit in gen.get("literals") or []:
            key, _, val = lit.partition("=")
            if not PLACEHOLDER.match(val):
                lint.err(path, f"secretGenerator {gen.get('name')}: literal {key} holds a "
                         "value, not a placeholder")
        for f in (gen.get("envs") or []) + (gen.get("files") or []):
            f = f.split("=", 1)[-1]
            p = os.path.join(d, f)
            # The real file is the operator's: ignored by git, made from the example.
            if not os.path.isfile(p + ".example"):
                lint.err(path, f"secretGenerator file {f} has no {f}.example beside it")
            else:
                check_env_file_placeholders(lint, p + ".example")
            if not ignored_by_git(k8s_dir, p):
                lint.err(path, f"secretGenerator file {f} is not ignored by k8s/.gitignore")
    for img in doc.get("images") or []:
        if img.get("name") != IMAGE:
            lint.err(path, f"images: {img.get('name')!r} is not the deckhand image {IMAGE!r}")


# ---- objects ---------------------------------------------------------------------------


def image_name(image):
    """'registry:5000/deckhand:1.2@sha256:..' -> 'registry:5000/deckhand' (no tag, digest)."""
    image = image.split("@")[0]
    last = image.rsplit("/", 1)
    if ":" in last[-1]:
        image = image[: image.rfind(":")]
    return image


def http_port_of(container):
    """The port the process is told to serve HTTP on: --http ADDR or DECKHAND_*_HTTP."""
    args = (container.get("command") or []) + (container.get("args") or [])
    for i, a in enumerate(args):
        if a == "--http" and i + 1 < len(args):
            return int(args[i + 1].rsplit(":", 1)[1])
        if a.startswith("--http="):
            return int(a.rsplit(":", 1)[1])
    for e in container.get("env") or []:
        if re.fullmatch(r"DECKHAND_[A-Z]+_HTTP", e.get("name", "")) and "value" in e:
            return int(str(e["value"]).rsplit(":", 1)[1])
    return None


def env_value(container, name):
    for e in container.get("env") or []:
        if e.get("name") == name:
            return e.get("value")
    return None


def check_container(lint, where, c, pod_sc, c_names, uid):
    sc = c.get("securityContext") or {}
    merged = dict(pod_sc, **sc)
    if merged.get("runAsNonRoot") is not True:
        lint.err(where, "runAsNonRoot is not true")
    if merged.get("runAsUser") == 0:
        lint.err(where, "runAsUser is 0")
    if sc.get("allowPrivilegeEscalation") is not False:
        lint.err(where, "allowPrivilegeEscalation is not false")
    if sc.get("readOnlyRootFilesystem") is not True:
        lint.err(where, "readOnlyRootFilesystem is not true")
    if sc.get("privileged"):
        lint.err(where, "privileged")
    if "ALL" not in ((sc.get("capabilities") or {}).get("drop") or []):
        lint.err(where, "capabilities do not drop ALL")
    if (sc.get("capabilities") or {}).get("add"):
        lint.err(where, "capabilities added")
    seccomp = (merged.get("seccompProfile") or {}).get("type")
    if seccomp not in ("RuntimeDefault", "Localhost"):
        lint.err(where, f"seccompProfile is {seccomp!r}, not RuntimeDefault")
    res = c.get("resources") or {}
    for kind in ("requests", "limits"):
        for r in ("cpu", "memory"):
            if r not in (res.get(kind) or {}):
                lint.err(where, f"no resources.{kind}.{r}")
    for probe in ("livenessProbe", "readinessProbe"):
        if not c.get(probe):
            lint.err(where, f"no {probe}")

    # $(VAR) in env values, command and args: defined earlier in env, or left literal by
    # Kubernetes (a silent bug: the process would get "$(VAR)").
    defined = set()
    for e in c.get("env") or []:
        for ref in re.findall(r"\$\((\w+)\)", str(e.get("value", ""))):
            if ref not in defined:
                lint.err(where, f"env {e.get('name')} uses $({ref}) before it is defined")
        defined.add(e.get("name"))
        name = e.get("name", "")
        if name.startswith("DECKHAND_") and c_names is not None and name not in c_names:
            lint.err(where, f"env {name} appears nowhere in the C sources")
    for a in (c.get("command") or []) + (c.get("args") or []):
        for ref in re.findall(r"\$\((\w+)\)", str(a)):
            if ref not in defined:
                lint.err(where, f"argument uses $({ref}), which env does not define")

    command = (c.get("command") or [""])[0]
    if not command.startswith("deckhand-"):
        return
    # A deckhand process: our image, our uid, HTTP probes on its operator port.
    if image_name(c.get("image", "")).rsplit("/", 1)[-1] != IMAGE:
        lint.err(where, f"image {c.get('image')!r} is not the deckhand image")
    if uid is not None and merged.get("runAsUser") != uid:
        lint.err(where, f"runAsUser {merged.get('runAsUser')} is not the Dockerfile's {uid}")
    port = http_port_of(c)
    if port is None:
        lint.err(where, "no --http / DECKHAND_*_HTTP: probes would have nothing to ask")
    for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
        get = (c.get(probe) or {}).get("httpGet")
        if not get:
            lint.err(where, f"{probe} is not an httpGet")
            continue
        if get.get("path") != path:
            lint.err(where, f"{probe} asks {get.get('path')!r}, not {path}")
        p = get.get("port")
        if isinstance(p, str):  # a named port
            p = next((cp.get("containerPort") for cp in c.get("ports") or []
                      if cp.get("name") == p), None)
        if port is not None and p != port:
            lint.err(where, f"{probe} port {get.get('port')} is not the --http port {port}")
    if command == "deckhand-worker":
        ep = env_value(c, "DECKHAND_WORKER_ENDPOINT") or ""
        pod_ip = any((e.get("valueFrom") or {}).get("fieldRef", {}).get("fieldPath") ==
                     "status.podIP" and f"$({e.get('name')})" in ep
                     for e in c.get("env") or [])
        if not pod_ip:
            lint.err(where, "DECKHAND_WORKER_ENDPOINT is not built from the pod IP "
                     "(status.podIP): gateways could not reach the worker")


def selects(selector, labels):
    """Labels set at run time (RUNTIME_LABELS) are left out here; k8s_lint_ops checks
    that the container setting them is there."""
    ml = (selector or {}).get("matchLabels", selector or {})
    return bool(ml) and all(labels.get(k) == v for k, v in ml.items() if k not in RUNTIME_LABELS)


def check_objects(lint, objs, c_names, uid):
    """objs: (where, object) pairs, every Kubernetes object of a tree or a rendering."""
    pods = []  # (where, template labels, kind, name)
    images = set()
    for where, o in objs:
        kind = o.get("kind")
        name = (o.get("metadata") or {}).get("name")
        at = f"{where}: {kind} {name}"
        if kind in WORKLOADS:
            spec = o.get("spec") or {}
            tpl = spec.get("template") or {}
            labels = (tpl.get("metadata") or {}).get("labels") or {}
            if not selects(spec.get("selector"), labels):
                lint.err(at, "selector does not match the pod template's labels")
            pods.append((at, labels, kind, name))
            pspec = tpl.get("spec") or {}
            pod_sc = pspec.get("securityContext") or {}
            if pspec.get("hostNetwork") or pspec.get("hostPID"):
                lint.err(at, "host namespaces")
            for c in (pspec.get("initContainers") or []) + (pspec.get("containers") or []):
                check_container(lint, f"{at} container {c.get('name')}", c, pod_sc,
                                c_names, uid)
                if (c.get("command") or [""])[0].startswith("deckhand-"):
                    images.add(image_name(c.get("image", "")))
        elif kind == "Secret":
            for field in ("data", "stringData"):
                for k, v in (o.get(field) or {}).items():
                    if not PLACEHOLDER.match(str(v)):
                        lint.err(at, f"{field}.{k} holds a value: real secrets stay out of git")
    if len(images) > 1:
        lint.err("images", f"deckhand containers name different images: {sorted(images)}")

    for where, o in objs:
        kind = o.get("kind")
        name = (o.get("metadata") or {}).get("name")
        at = f"{where}: {kind} {name}"
        spec = o.get("spec") or {}
        if kind in ("Service", "PodDisruptionBudget", "NetworkPolicy"):
            sel = spec.get("podSelector") if kind == "NetworkPolicy" else spec.get("selector")
            if sel and not any(selects(sel, labels) for _, labels, _, _ in pods):
                lint.err(at, "its selector matches no pod template")
        if kind == "HorizontalPodAutoscaler":
            ref = spec.get("scaleTargetRef") or {}
            if not any(k == ref.get("kind") and n == ref.get("name") for _, _, k, n in pods):
                lint.err(at, f"scales {ref.get('kind')} {ref.get('name')}, which is not here")
        if kind == "Service" and spec.get("type") in ("LoadBalancer", "NodePort"):
            ports = {p.get("port") for p in spec.get("ports") or []}
            gw = [labels for _, labels, _, _ in pods if selects(spec.get("selector"), labels)]
            if not gw or any(l.get("app.kubernetes.io/component") != "gateway" for l in gw):
                lint.err(at, "only the gateway may be exposed outside the cluster")
            if ports != CLIENT_PORTS:
                lint.err(at, f"exposes ports {sorted(ports)}; the gateway's public ports are "
                         f"{sorted(CLIENT_PORTS)} only")


# ---- a tree, a rendering ---------------------------------------------------------------


def lint_tree(root):
    lint = Lint()
    k8s = os.path.join(root, "k8s")
    if not os.path.isdir(k8s):
        lint.err(k8s, "missing")
        return lint.errors
    uid = dockerfile_uid(lint, os.path.join(k8s, "Dockerfile"))
    c_names = c_env_names(root)
    objs = []
    for dirpath, _, files in sorted(os.walk(k8s)):
        for fn in sorted(files):
            if not fn.endswith((".yaml", ".yml")):
                continue
            path = os.path.join(dirpath, fn)
            for doc in load_yaml_docs(lint, path):
                if not isinstance(doc, dict):
                    lint.err(path, "a document that is not a mapping")
                elif doc.get("kind") == "Kustomization" or fn.startswith("kustomization."):
                    check_kustomization(lint, path, doc, k8s)
                elif "kind" in doc:
                    objs.append((os.path.relpath(path, root), doc))
    check_objects(lint, objs, c_names, uid)
    known = c_metric_names(root, C_DIRS)
    adapter = lint_monitoring_files(lint, root, known)
    check_objects_ops(lint, objs, known, adapter)
    return lint.errors


def kustomize(lint, where, d):
    """`kubectl kustomize d`'s documents, or [] (an error noted) when it fails."""
    r = subprocess.run(["kubectl", "kustomize", d], capture_output=True, text=True)
    if r.returncode != 0:
        lint.err(where, f"kubectl kustomize failed: {r.stderr.strip()}")
        return []
    return [x for x in yaml.safe_load_all(r.stdout) if x]


def lint_rendered(root):
    """Each overlay through `kubectl kustomize`, in a copy with the example secrets. With
    DECKHAND_K8S_RENDERED=FILE, every rendered object also goes to FILE as JSON, a list of
    [where, object], for the schema check (tests/lint/k8s_schema/validate.mjs)."""
    lint = Lint()
    out = []
    uid = dockerfile_uid(lint, os.path.join(root, "k8s", "Dockerfile"))
    c_names = c_env_names(root)
    known = c_metric_names(root, C_DIRS)
    adapter = lint_monitoring_files(Lint(), root, known)
    with tempfile.TemporaryDirectory() as tmp:
        k8s = os.path.join(tmp, "k8s")
        shutil.copytree(os.path.join(root, "k8s"), k8s)
        overlays = os.path.join(k8s, "overlays")
        for ov in sorted(os.listdir(overlays)):
            d = os.path.join(overlays, ov)
            for fn in os.listdir(d):  # every generator file from its example
                if fn.endswith(".example"):
                    shutil.copy(os.path.join(d, fn), os.path.join(d, fn[: -len(".example")]))
            # The overlay as it is, and with the TLS component (k8s/tls) added.
            docs = kustomize(lint, f"overlays/{ov}", d)
            rendered = [(f"overlays/{ov} (rendered)", x) for x in docs if x.get("kind") != "Secret"]
            check_objects(lint, rendered, c_names, uid)
            check_objects_ops(lint, rendered, known, adapter)
            tls = os.path.join(tmp, f"tls-{ov}")
            os.makedirs(tls)
            with open(os.path.join(tls, "kustomization.yaml"), "w", encoding="utf-8") as f:
                f.write(f"resources: [{os.path.relpath(d, tls)}]\n"
                        f"components: [{os.path.relpath(os.path.join(k8s, 'tls'), tls)}]\n")
            with_tls = kustomize(lint, f"overlays/{ov} + tls", tls)
            if not any(x.get("kind") == "Ingress" for x in with_tls):
                lint.err(f"overlays/{ov} + tls", "no Ingress rendered")
            check_objects_ops(lint, [(f"overlays/{ov} + tls", x) for x in with_tls
                                     if x.get("kind") != "Secret"], known, adapter)
            mon = kustomize(lint, "monitoring", os.path.join(k8s, "monitoring"))
            out += [[f"overlays/{ov}", x] for x in docs] + \
                [[f"overlays/{ov} + tls", x] for x in with_tls] + [["monitoring", x] for x in mon]
            for x in docs + with_tls + mon:
                ns = (x.get("metadata") or {}).get("namespace")
                if x.get("kind") != "Namespace" and ns != "deckhand":
                    lint.err(f"overlays/{ov}", f"{x.get('kind')} {x['metadata'].get('name')} "
                             f"is in namespace {ns!r}, not deckhand")
    if os.environ.get("DECKHAND_K8S_RENDERED"):
        with open(os.environ["DECKHAND_K8S_RENDERED"], "w", encoding="utf-8") as f:
            json.dump(out, f)
    return lint.errors


# ---- the lint's own test ---------------------------------------------------------------

GOOD = yaml.safe_load("""
kind: Deployment
metadata: {name: deckhand-worker}
spec:
  selector: {matchLabels: {app.kubernetes.io/component: worker}}
  template:
    metadata: {labels: {app.kubernetes.io/component: worker}}
    spec:
      securityContext: {runAsNonRoot: true, runAsUser: 10001,
                        seccompProfile: {type: RuntimeDefault}}
      containers:
        - name: worker
          image: deckhand:dev
          command: [deckhand-worker]
          env:
            - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
            - {name: DECKHAND_WORKER_ENDPOINT, value: "tcp://$(POD_IP):5570"}
            - {name: DECKHAND_WORKER_HTTP, value: "0.0.0.0:5580"}
          livenessProbe: {httpGet: {path: /healthz, port: 5580}}
          readinessProbe: {httpGet: {path: /readyz, port: 5580}}
          resources: {requests: {cpu: 1, memory: 1Gi}, limits: {cpu: 1, memory: 1Gi}}
          securityContext: {allowPrivilegeEscalation: false, readOnlyRootFilesystem: true,
                            capabilities: {drop: [ALL]}}
""")


def broken_cases():
    """(what is broken, objects): each must give at least one error."""
    def worker(edit):
        o = copy.deepcopy(GOOD)
        edit(o["spec"]["template"]["spec"]["containers"][0], o)
        return [("self-test", o)]

    def svc(ports):
        return [("self-test", copy.deepcopy(GOOD)), ("self-test", {
            "kind": "Service", "metadata": {"name": "gw"},
            "spec": {"type": "LoadBalancer", "selector": {"app.kubernetes.io/component": "worker"},
                     "ports": [{"port": p} for p in ports]}})]

    return [
        ("readiness probe on another port",
         worker(lambda c, o: c["readinessProbe"]["httpGet"].update(port=5581))),
        ("liveness probe on /readyz",
         worker(lambda c, o: c["livenessProbe"]["httpGet"].update(path="/readyz"))),
        ("exec probe", worker(lambda c, o: c.update(livenessProbe={"exec": {"command": ["true"]}}))),
        ("no readiness probe", worker(lambda c, o: c.pop("readinessProbe"))),
        ("writable root", worker(lambda c, o: c["securityContext"].update(readOnlyRootFilesystem=False))),
        ("privilege escalation", worker(lambda c, o: c["securityContext"].pop("allowPrivilegeEscalation"))),
        ("capabilities kept", worker(lambda c, o: c["securityContext"].pop("capabilities"))),
        ("root", worker(lambda c, o: o["spec"]["template"]["spec"]["securityContext"].pop("runAsNonRoot"))),
        ("no limits", worker(lambda c, o: c["resources"].pop("limits"))),
        ("unknown env", worker(lambda c, o: c["env"].append({"name": "DECKHAND_WROKER_ID", "value": "x"}))),
        ("endpoint not the pod IP",
         worker(lambda c, o: c["env"][1].update(value="tcp://0.0.0.0:5570"))),
        ("$(VAR) used before defined", worker(lambda c, o: c["env"].reverse())),
        ("another image", worker(lambda c, o: c.update(image="nginx:1"))),
        ("selector matches nothing",
         worker(lambda c, o: o["spec"]["selector"]["matchLabels"].update({"x": "y"}))),
        ("LoadBalancer with the HTTP port", svc([7000, 7001, 7010])),
        ("LoadBalancer in front of workers", svc([7000, 7001])),
        ("Secret with a key", [("self-test", {"kind": "Secret", "metadata": {"name": "s"},
                                              "stringData": {"token-key": "0123456789abcdef"}})]),
    ]


def self_test(c_names):
    failures = []
    lint = Lint()
    check_objects(lint, [("self-test", copy.deepcopy(GOOD))], c_names, 10001)
    if lint.errors:
        failures.append(f"the good manifest fails: {lint.errors}")
    for what, objs in broken_cases():
        lint = Lint()
        check_objects(lint, objs, c_names, 10001)
        if not lint.errors:
            failures.append(f"not caught: {what}")
    return failures


def main(argv):
    render = "--render" in argv
    args = [a for a in argv if a != "--render"]
    root = os.path.abspath(args[0] if args else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    failures = self_test(c_env_names(root))
    failures += self_test_ops(Lint, c_metric_names(root, C_DIRS))
    for f in failures:
        print(f"k8s_lint self-test: {f}")
    if failures:
        return 1
    errors = lint_tree(root)
    if render:
        errors += lint_rendered(root)
    prom = Lint()
    promtool = promtool_checks(prom, root)
    errors += prom.errors
    for e in errors:
        print(f"k8s_lint: {e}")
    print(f"k8s_lint: {'FAILED, ' + str(len(errors)) + ' problems' if errors else 'ok'}"
          f"{' (overlays rendered)' if render else ''}"
          f"{' (rules and scrape configuration checked by promtool)' if promtool else ''}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
