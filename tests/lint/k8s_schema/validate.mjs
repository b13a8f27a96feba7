// validate.mjs: the lint's schema check of the Kubernetes manifests (lint.k8s_schema in
// tests/CMakeLists.txt). Every object of every overlay as `kubectl kustomize` renders it
// (tests/lint/k8s_lint.py --render, with the example secrets; the overlays with the tls
// component; monitoring/) is validated against the Kubernetes API's OpenAPI definitions as
// the npm package kubernetes-models ships them, compiled to validators: types, required
// fields, enums and formats, so a string where the API wants a port number, a Deployment
// without a selector or a misspelt kind fails the lint. Those validators let unknown fields
// through (the API's schemas allow them); k8s_lint.py's own checks cover the fields that
// matter here. Custom resources (the Prometheus Operator's) have no definitions in the
// package and are listed as not validated. It first validates broken objects made here and
// fails if any is accepted.
//
//   node validate.mjs ROOT      (npm ci in this folder first: CMake does it)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(process.argv[2] || path.join(here, "..", "..", ".."));

// The kubernetes-models class for apiVersion and kind, or null when the package has none.
async function modelFor(apiVersion, kind) {
  if (typeof apiVersion !== "string" || typeof kind !== "string" || !/^[A-Za-z0-9]+$/.test(kind))
    return null;
  try {
    const m = await import(`kubernetes-models/${apiVersion}/${kind}`);
    return m[kind] || null;
  } catch {
    return null;
  }
}

// A Secret's data as the API server reads it: kustomize folds long base64 values over
// lines, and the server's decoder (Go's encoding/base64) skips the line breaks, which the
// package's "byte" format does not.
function asServerReads(obj) {
  if (obj.kind !== "Secret" || !obj.data) return obj;
  const data = Object.fromEntries(Object.entries(obj.data).map(([k, v]) => [k, String(v).replace(/[\r\n]/g, "")]));
  return { ...obj, data };
}

// "" when obj validates, else why not; null when the package has no schema for it.
async function problem(raw) {
  const obj = asServerReads(raw);
  const Model = await modelFor(obj.apiVersion, obj.kind);
  if (!Model) return null;
  try {
    new Model(obj).validate();
    return "";
  } catch (e) {
    return String(e.message || e).split("\n")[0];
  }
}

const good = {
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name: "w" },
  spec: {
    selector: { matchLabels: { a: "b" } },
    template: {
      metadata: { labels: { a: "b" } },
      spec: { containers: [{ name: "w", image: "deckhand", ports: [{ containerPort: 5570 }] }] },
    },
  },
};

// Broken copies of a valid Deployment and Service, each of which must be refused.
function brokenCases() {
  const edit = (f) => {
    const o = structuredClone(good);
    f(o);
    return o;
  };
  return [
    ["a port by name where a number goes", edit((o) => (o.spec.template.spec.containers[0].ports[0].containerPort = "http"))],
    ["no selector", edit((o) => delete o.spec.selector)],
    ["a container without a name", edit((o) => delete o.spec.template.spec.containers[0].name)],
    ["runAsUser as a string", edit((o) => (o.spec.template.spec.securityContext = { runAsUser: "10001" }))],
    ["a Service port out of type", { apiVersion: "v1", kind: "Service", metadata: { name: "s" }, spec: { ports: [{ port: "7000" }] } }],
    ["a Secret value that is not base64", { apiVersion: "v1", kind: "Secret", metadata: { name: "s" }, data: { k: "not base64!" } }],
  ];
}

async function selfTest() {
  const failures = [];
  if ((await problem(good)) !== "") failures.push(`a valid Deployment was refused: ${await problem(good)}`);
  for (const [what, obj] of brokenCases()) if (!(await problem(obj))) failures.push(`not caught: ${what}`);
  return failures;
}

function render() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "deckhand-k8s-schema-"));
  const file = path.join(tmp, "rendered.json");
  try {
    const r = spawnSync("python3", [path.join(root, "tests", "lint", "k8s_lint.py"), "--render", root], {
      env: { ...process.env, DECKHAND_K8S_RENDERED: file },
      encoding: "utf8",
    });
    if (r.status !== 0) {
      console.error(r.stdout + r.stderr);
      throw new Error("k8s_lint.py --render failed");
    }
    return JSON.parse(readFileSync(file, "utf8"));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const failures = await selfTest();
for (const f of failures) console.log(`k8s_schema self-test: ${f}`);
if (failures.length) process.exit(1);

const errors = [];
const skipped = new Set();
let checked = 0;
for (const [where, obj] of render()) {
  const p = await problem(obj);
  const name = `${obj.kind} ${obj.metadata?.name}`;
  if (p === null) skipped.add(`${obj.apiVersion} ${obj.kind}`);
  else if (p) errors.push(`${where}: ${name}: ${p}`);
  else checked++;
}
for (const e of errors) console.log(`k8s_schema: ${e}`);
console.log(`k8s_schema: ${errors.length ? `FAILED, ${errors.length} problems` : "ok"}: ${checked} objects valid` +
  ` against the Kubernetes API's schemas (kubernetes-models)` +
  (skipped.size ? `; no schema for ${[...skipped].sort().join(", ")}` : ""));
process.exit(errors.length ? 1 : 0);
