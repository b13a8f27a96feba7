// run.mjs BUILD_WEB: the web client's unit tests (test/*.test.ts) under node's test
// runner: each bundled by esbuild (TypeScript stripped; "deckhand-proto" is the protocol
// code build.mjs generated into BUILD_WEB/.gen), then `node --test` over the bundles.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(process.argv[2] || path.join(here, "../../../build/web"));
const out = fs.mkdtempSync(path.join(os.tmpdir(), "deckhand-web-test-"));
const tests = fs.readdirSync(here).filter((f) => f.endsWith(".test.ts")).map((f) => path.join(here, f));
const noLong = {
  name: "no-long",
  setup(b) {
    b.onResolve({ filter: /^long$/ }, () => ({ path: "long", namespace: "no-long" }));
    b.onLoad({ filter: /.*/, namespace: "no-long" }, () => ({ contents: "module.exports = null;" }));
  },
};
try {
  await build({
    entryPoints: tests, bundle: true, format: "esm", platform: "node", outdir: out,
    outExtension: { ".js": ".mjs" }, external: ["node:*"], logLevel: "warning",
    alias: { "deckhand-proto": path.join(web, ".gen/deckhand.js") },
    nodePaths: [path.join(here, "../node_modules")], plugins: [noLong],
  });
  const files = fs.readdirSync(out).map((f) => path.join(out, f));
  const r = spawnSync(process.execPath, ["--test", ...files], { stdio: "inherit" });
  process.exitCode = r.status ?? 1;
} finally {
  fs.rmSync(out, { recursive: true, force: true });
}
