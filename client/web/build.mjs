// build.mjs: builds the web client into OUT (default ../../build/web): the protocol's
// static code from the project's own proto/deckhand.proto (protobufjs-cli's pbjs: plain
// functions, no eval, so the page runs under a strict Content-Security-Policy), one
// bundle of src/ by esbuild (TypeScript stripped, minified, names carrying a hash of their
// contents so the gateway may let browsers keep them), and index.html naming them.
// The messages' TypeScript types come from the same .proto first (gen-types.mjs).
// Nothing is fetched at run time: the page is these files and the gateway's WebSocket.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeTypes } from "./gen-types.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] || path.join(here, "../../build/web"));
const gen = path.join(out, ".gen"); // a dot folder: the gateway serves no dot names
const proto = path.join(here, "../../proto/deckhand.proto");

writeTypes();
fs.rmSync(path.join(out, "assets"), { recursive: true, force: true });
fs.mkdirSync(gen, { recursive: true });
execFileSync(process.execPath, [
  path.join(here, "node_modules/protobufjs-cli/bin/pbjs"),
  "-t", "static-module", "-w", "es6", "--keep-case", "--no-verify", "--no-delimited",
  "--no-service", "--no-comments", "-o", path.join(gen, "deckhand.js"), proto,
], { stdio: "inherit" });

// protobufjs asks for long.js when it is there; without it 64-bit fields are plain
// numbers, which is what the client wants (ids and counters stay far below 2^53).
const noLong = {
  name: "no-long",
  setup(b) {
    b.onResolve({ filter: /^long$/ }, () => ({ path: "long", namespace: "no-long" }));
    b.onLoad({ filter: /.*/, namespace: "no-long" }, () => ({ contents: "module.exports = null;" }));
  },
};

const result = await build({
  entryPoints: [path.join(here, "src/main.ts")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  outdir: path.join(out, "assets"),
  entryNames: "app-[hash]",
  alias: { "deckhand-proto": path.join(gen, "deckhand.js") },
  nodePaths: [path.join(here, "node_modules")], // for the generated code, which lives in OUT
  plugins: [noLong],
  metafile: true,
  logLevel: "warning",
});

const names = Object.keys(result.metafile.outputs).map((p) => "/assets/" + path.basename(p));
const js = names.find((n) => n.endsWith(".js"));
const css = names.find((n) => n.endsWith(".css"));
const page = fs.readFileSync(path.join(here, "index.html"), "utf8")
  .replace("%CSS%", css).replace("%JS%", js);
fs.writeFileSync(path.join(out, "index.html"), page);
for (const n of names) {
  const size = fs.statSync(path.join(out, n)).size;
  if (size > 700 * 1024) throw new Error(`${n} is ${size} bytes: over the gateway's 768 KiB a file`);
}
console.log(`web client: ${names.join(" ")} -> ${out}`);
