// install.mjs NPM: `npm ci` in this folder from the lock file, tried twice (a registry that
// hiccups once should not fail a CI run, as apt-get in scripts/lib/setup.sh). CMake runs
// it when package.json or package-lock.json changes.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const npm = process.argv[2] || "npm";
const args = ["ci", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
for (let attempt = 1; attempt <= 2; attempt++) {
  const r = spawnSync(npm, args, { cwd: here, stdio: "inherit" });
  if (r.status === 0) process.exit(0);
  console.error(`npm ci failed (${r.status ?? r.error}); ${attempt === 1 ? "retrying in 5 s" : "giving up"}`);
  if (attempt === 1) spawnSync("sleep", ["5"]);
}
process.exit(1);
